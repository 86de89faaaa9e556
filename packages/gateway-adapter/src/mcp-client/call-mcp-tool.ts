// `tools/call` on a connection: refused for a withheld tool, through the task API for a task-only tool, and the
// result checked against the tool's output schema when the server is trusted.
import type { CallToolResult, RequestOptions } from '@modelcontextprotocol/client';
import { callWithInputRounds } from './answer-server-questions.js';
import type { McpCallOptions, McpCallResult } from './mcp-server-connection.js';
import { callToolAsTask } from './call-tool-as-task.js';
import type { McpConnectionCore } from './mcp-connection-core.js';
import { describeAjvErrors } from './read-mcp-error.js';
import { runMcpRequest, type RequestParts } from './run-mcp-request.js';
import { simplifyCallResult, toContentParts } from './to-content-parts.js';
import { TOTAL_TIMEOUT } from './total-timeout.js';
import { traceContextMeta } from '../otel/gateway-spans.js';

/** The parts of a connection a call needs. */
export type ToolCallParts = RequestParts & Pick<McpConnectionCore, 'client' | 'compiler' | 'options' | 'log' | 'roots'>;

/** Calls tool `name`; fails fast (naming the server) when the server is not connected. */
export async function callMcpTool(core: ToolCallParts, name: string, args: Record<string, unknown>, callOptions: McpCallOptions): Promise<McpCallResult> {
  const { config, state } = core;
  if (state.status !== 'connected') return state.notConnected();
  const refused = state.withheld.find((tool) => tool.name === name);
  if (refused !== undefined) return { ok: false, code: 'failed', message: `Tool ${name} of MCP server "${config.name}" is not offered (${refused.reason})` };
  const asTask = state.tools.get(name)?.taskSupport === 'required';
  const called = await runMcpRequest(
    core,
    `tools/call ${name}`,
    (requestOptions) =>
      asTask
        ? callToolAsTask(core.client, { name, args, requestOptions, onProgress: callOptions.onProgress, totalTimeoutReason: TOTAL_TIMEOUT })
        : plainCall(core, name, args, requestOptions),
    callOptions,
  );
  return called.ok ? toCallResult(core, called.value.result, name, called.value.taskId) : called;
}

/** A plain `tools/call`; the active trace context rides in `params._meta` (MCP SEP-414), so the server's spans join the trace. */
function plainCall(core: ToolCallParts, name: string, args: Record<string, unknown>, requestOptions: RequestOptions) {
  const meta = traceContextMeta();
  const params = meta === undefined ? { name, arguments: args } : { name, arguments: args, _meta: meta };
  // On 2026-07-28 the call's questions are answered here, in the caller's context (see answer-server-questions).
  if (core.client.getProtocolEra() === 'modern') return callWithInputRounds(core, params, requestOptions).then((result) => ({ result, taskId: undefined }));
  return core.client.request({ method: 'tools/call', params }, requestOptions).then((result) => ({ result, taskId: undefined }));
}

function toCallResult(core: ToolCallParts, result: CallToolResult, name: string, taskId: string | undefined): McpCallResult {
  const parts = toContentParts(result.content);
  // 2026-07-28 lets structured content be any JSON value; the connection's result carries an object only.
  const structured = isObject(result.structuredContent) ? result.structuredContent : undefined;
  const outputSchema = core.state.tools.get(name)?.outputSchema;
  if (core.config.trusted === true && outputSchema !== undefined && structured !== undefined && result.isError !== true) {
    const compiled = core.compiler.compile(outputSchema);
    if (compiled.ok && !compiled.validate(structured)) {
      return {
        ok: false,
        code: 'invalid_output',
        message: `MCP server "${core.config.name}" returned structured content for ${name} that does not match its output schema: ${describeAjvErrors(compiled.validate.errors)}`,
      };
    }
  }
  const out: McpCallResult = { ok: true, parts, isError: result.isError === true, result: simplifyCallResult(parts, structured) };
  if (structured !== undefined) out.structured = structured;
  if (taskId !== undefined) out.taskId = taskId;
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
