// A `tools/call` through the SDK's task API: the call creates a task, its status is polled until it ends and
// the result is fetched. Status updates are reported as progress; an abort cancels the task on the server
// (`tasks/cancel`) and ends the wait at once rather than after the SDK's next poll.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CallToolResultSchema, ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpProgress } from './mcp-server-connection.js';

/** How long a `tasks/cancel` after an abort may take. */
const CANCEL_TIMEOUT_MS = 5_000;

/** Runs a task-based call; rejects like a plain request (an `McpError`, or the abort reason). */
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
  let taskId: string | undefined;
  let updates = 0;
  const stream = client.experimental.tasks.requestStream(
    { method: 'tools/call', params: { name: call.name, arguments: call.args } },
    CallToolResultSchema,
    { ...call.requestOptions, task: {} },
  );
  const aborted = new Promise<never>((_, reject) => {
    const fail = () => {
      if (taskId !== undefined) void client.experimental.tasks.cancelTask(taskId, { timeout: CANCEL_TIMEOUT_MS }).catch(() => undefined);
      reject(signal.reason === call.totalTimeoutReason ? new McpError(ErrorCode.RequestTimeout, 'task did not finish in time') : signal.reason);
    };
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
  aborted.catch(() => undefined);
  const iterator = stream[Symbol.asyncIterator]();
  for (;;) {
    const next = await Promise.race([iterator.next(), aborted]);
    if (next.done) throw new McpError(ErrorCode.InternalError, `task for ${call.name} ended without a result`);
    const message = next.value;
    switch (message.type) {
      case 'taskCreated':
        taskId = message.task.taskId;
        break;
      case 'taskStatus': {
        updates += 1;
        const text = message.task.statusMessage === undefined ? message.task.status : `${message.task.status}: ${message.task.statusMessage}`;
        call.onProgress?.({ progress: updates, message: text.slice(0, 500) });
        break;
      }
      case 'result':
        return { result: message.result as CallToolResult, taskId };
      case 'error':
        throw message.error;
    }
  }
}
