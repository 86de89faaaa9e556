// A task-based `tools/call` (the 2025-11-25 task wire vocabulary, which SDK v2 keeps as explicit schemas but no
// longer drives itself): the call creates a task, its status is polled with `tasks/get` until it ends and the
// result is fetched with `tasks/result`. Status changes are reported as progress; an abort cancels the task on
// the server (`tasks/cancel`) and ends the wait at once rather than after the next poll.
import { SdkError, SdkErrorCode, type CallToolResult, type Client, type RequestOptions } from '@modelcontextprotocol/client';
import { CallToolResultSchema, CancelTaskResultSchema, CreateTaskResultSchema, GetTaskResultSchema } from '@modelcontextprotocol/core';
import type { McpProgress } from './mcp-server-connection.js';

/** How long a `tasks/cancel` after an abort may take. */
const CANCEL_TIMEOUT_MS = 5_000;
/** The poll interval when the server suggests none, and the bounds of one it suggests. */
const DEFAULT_POLL_MS = 500;
const MIN_POLL_MS = 50;
const MAX_POLL_MS = 5_000;
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** Runs a task-based call; rejects like a plain request (an SDK error, or the abort reason). */
export async function callToolAsTask(
  client: Client,
  call: {
    name: string;
    args: Record<string, unknown>;
    /** Must carry a signal: the connection always gives every call its own. */
    requestOptions: RequestOptions;
    onProgress: ((progress: McpProgress) => void) | undefined;
    /** The abort reason that means "out of time" rather than "cancelled". */
    totalTimeoutReason: unknown;
  },
): Promise<{ result: CallToolResult; taskId: string | undefined }> {
  const signal = call.requestOptions.signal!;
  // Known once the server created the task; an abort before that has nothing to cancel.
  const created: { taskId?: string } = {};
  const aborted = new Promise<never>((_, reject) => {
    const fail = () => {
      if (created.taskId !== undefined) {
        void client.request({ method: 'tasks/cancel', params: { taskId: created.taskId } }, CancelTaskResultSchema, { timeout: CANCEL_TIMEOUT_MS }).catch(() => undefined);
      }
      reject(signal.reason === call.totalTimeoutReason ? new SdkError(SdkErrorCode.RequestTimeout, 'task did not finish in time') : signal.reason);
    };
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
  aborted.catch(() => undefined);
  const creation = await Promise.race([
    client.request({ method: 'tools/call', params: { name: call.name, arguments: call.args, task: {} } }, CreateTaskResultSchema, call.requestOptions),
    aborted,
  ]);
  const taskId = creation.task.taskId;
  created.taskId = taskId;
  let task = creation.task;
  let updates = 0;
  let lastStatus = '';
  // Every status change is progress, the final one included (as the 2025 task stream reported it).
  const report = (current: typeof task) => {
    const text = current.statusMessage === undefined ? current.status : `${current.status}: ${current.statusMessage}`;
    if (text === lastStatus) return;
    lastStatus = text;
    updates += 1;
    call.onProgress?.({ progress: updates, message: text.slice(0, 500) });
  };
  report(task);
  while (!TERMINAL.has(task.status)) {
    const wait = Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, task.pollInterval ?? DEFAULT_POLL_MS));
    await Promise.race([sleep(wait), aborted]);
    task = await Promise.race([client.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema, call.requestOptions), aborted]);
    report(task);
  }
  const result = await Promise.race([client.request({ method: 'tasks/result', params: { taskId } }, CallToolResultSchema, call.requestOptions), aborted]);
  return { result, taskId };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref?.());
}
