// How a rejected request becomes a failure value. The SDK turns any abort into `McpError(RequestTimeout,
// String(reason))`, so the signals are read first: the caller's (a deadline or a cancel), then our own total
// ceiling. A failure below JSON-RPC is checked with the liveness probe before it counts as the call's own.
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { RESULT_TOO_LARGE_CODE, type ResultTooLargeData } from './bounded-read-buffer.js';
import type { McpConnectionCore } from './mcp-connection-core.js';
import type { McpRequestFailure } from './mcp-connection-state.js';
import { errorText, isTotalTimeout, isUnauthorized } from './read-mcp-error.js';
import { TOTAL_TIMEOUT } from './total-timeout.js';

/** What the runner knows of the failed request. */
export interface RequestFailureContext {
  /** The request as messages name it (`tools/call echo`, `resources/list`). */
  what: string;
  callerSignal: AbortSignal | undefined;
  ownSignal: AbortSignal;
  idleMs: number;
  totalMs: number;
}

/** The parts of a connection a classification needs. */
export type FailureParts = Pick<McpConnectionCore, 'config' | 'state' | 'redact' | 'confirmAlive' | 'becomeUnauthorized'>;

type RequestFailureKind = 'caller_deadline' | 'cancelled' | 'total_timeout' | 'unauthorized' | 'became_unavailable' | 'idle_timeout' | 'result_too_large' | 'failed';

/** The failure value of each kind, in one place. */
const FAILURE_OF: Record<RequestFailureKind, (core: FailureParts, error: unknown, context: RequestFailureContext) => McpRequestFailure> = {
  caller_deadline: (core, _error, { what }) => ({ ok: false, code: 'timeout', message: `MCP server "${core.config.name}" did not finish ${what} before the caller's deadline` }),
  cancelled: (core, _error, { what }) => ({ ok: false, code: 'cancelled', message: `${what} on MCP server "${core.config.name}" was cancelled` }),
  total_timeout: (core, _error, { what, totalMs }) => ({
    ok: false,
    code: 'timeout',
    message: `MCP server "${core.config.name}" did not finish ${what} within the maximum of ${totalMs} ms`,
  }),
  // The server wants a token none could be had for: the connection is unauthorized from now on.
  unauthorized: (core) => {
    core.becomeUnauthorized();
    return core.state.notConnected();
  },
  became_unavailable: (core, error, { what }) => {
    const during = what.startsWith('tools/call') ? 'the call' : what;
    const message = `MCP server "${core.config.name}" became unavailable during ${during}: ${core.state.failure ?? core.redact(errorText(error))}`;
    return { ok: false, code: core.state.notConnected().code, message };
  },
  idle_timeout: (core, _error, { what, idleMs }) => ({ ok: false, code: 'timeout', message: `MCP server "${core.config.name}" did not answer ${what} within ${idleMs} ms` }),
  result_too_large: (core, error, { what }) => {
    const { bytes, limit } = (error as ProtocolError).data as ResultTooLargeData;
    return {
      ok: false,
      code: 'result_too_large',
      message: `MCP server "${core.config.name}" answered ${what} with ${bytes} bytes, over the limit of ${limit} bytes (maxResultBytes): the result was discarded; ask for less (a narrower query, a range, a page)`,
    };
  },
  failed: (core, error, { what }) => ({ ok: false, code: 'failed', message: `MCP server "${core.config.name}" failed ${what}: ${core.redact(errorText(error)).slice(0, 2_000)}` }),
};

/** Turns a rejected request into a failure value (and checks an HTTP server that failed below JSON-RPC). */
export async function classifyRequestFailure(core: FailureParts, error: unknown, context: RequestFailureContext): Promise<McpRequestFailure> {
  const kind = await failureKindOf(core, error, context);
  return FAILURE_OF[kind](core, error, context);
}

/** The first kind that applies, in this order. */
async function failureKindOf(core: FailureParts, error: unknown, context: RequestFailureContext): Promise<RequestFailureKind> {
  if (context.callerSignal?.aborted) {
    const reason = context.callerSignal.reason as unknown;
    return reason instanceof Error && reason.name === 'TimeoutError' ? 'caller_deadline' : 'cancelled';
  }
  const sdkTimeout = error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout;
  if ((context.ownSignal.reason as unknown) === TOTAL_TIMEOUT || (sdkTimeout && isTotalTimeout(error))) return 'total_timeout';
  if (isUnauthorized(error)) return 'unauthorized';
  if (error instanceof ProtocolError && error.code === RESULT_TOO_LARGE_CODE && (error.data as Partial<ResultTooLargeData> | undefined)?.reason === 'result_too_large') return 'result_too_large';
  // A failure below JSON-RPC (not a server's error answer) may mean the server is gone.
  if (core.state.status === 'connected' && !(error instanceof ProtocolError)) await core.confirmAlive();
  if (core.state.status !== 'connected') return 'became_unavailable';
  return sdkTimeout ? 'idle_timeout' : 'failed';
}
