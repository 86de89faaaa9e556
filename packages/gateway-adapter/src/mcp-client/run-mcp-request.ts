// One MCP request of a connection: its own abort signal linked to the caller's, an idle timeout that progress
// resets, our own timer for the total ceiling (the SDK checks that ceiling only when progress arrives), and one
// retry after an interactive authorization.
import { UnauthorizedError } from '@modelcontextprotocol/client';
import type { RequestOptions } from '@modelcontextprotocol/client';
import type { McpProgress } from './mcp-server-connection.js';
import { classifyRequestFailure, type FailureParts } from './classify-request-failure.js';
import { combineSignals } from '../shared/index.js';
import { traceMcpRequest } from '../otel/gateway-spans.js';
import type { McpConnectionCore } from './mcp-connection-core.js';
import type { McpRequestFailure } from './mcp-connection-state.js';
import { DEFAULT_MAX_TOTAL_TIMEOUT_MS, TOTAL_TIMEOUT } from './total-timeout.js';

/** What the caller of one request may set. */
export interface McpRequestOptions {
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  maxTotalTimeoutMs?: number | undefined;
  onProgress?: ((progress: McpProgress) => void) | undefined;
  progressExtendsTimeout?: boolean | undefined;
}

/** The parts of a connection a request needs. */
export type RequestParts = FailureParts & Pick<McpConnectionCore, 'requestTimeoutMs' | 'auth' | 'transport' | 'client'>;

/**
 * Runs one request with a per-call signal, an idle and a total timeout, inside its MCP client span (`what` is
 * `{method} {target}`; only a tool or prompt name is a span name's target); retries once after an interactive
 * authorization.
 */
export function runMcpRequest<T>(
  core: RequestParts,
  what: string,
  run: (requestOptions: RequestOptions) => Promise<T>,
  callOptions: McpRequestOptions,
): Promise<{ ok: true; value: T } | McpRequestFailure> {
  const space = what.indexOf(' ');
  const method = space < 0 ? what : what.slice(0, space);
  const target = space < 0 || (method !== 'tools/call' && method !== 'prompts/get') ? undefined : what.slice(space + 1);
  const facts = {
    method,
    target,
    server: core.config.name,
    transport: core.config.transport === 'stdio' ? ('pipe' as const) : ('tcp' as const),
    protocolVersion: core.client.getNegotiatedProtocolVersion(),
    sessionId: (core.transport as { sessionId?: string | undefined }).sessionId,
  };
  return traceMcpRequest(facts, () => runTimedRequest(core, what, run, callOptions), (result) => (result.ok ? undefined : result.code));
}

async function runTimedRequest<T>(
  core: RequestParts,
  what: string,
  run: (requestOptions: RequestOptions) => Promise<T>,
  callOptions: McpRequestOptions,
): Promise<{ ok: true; value: T } | McpRequestFailure> {
  if (core.state.status !== 'connected') return core.state.notConnected();
  const ceilingMs = callOptions.maxTotalTimeoutMs ?? core.config.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_TIMEOUT_MS;
  const idleMs = Math.min(callOptions.timeoutMs ?? core.config.timeoutMs ?? core.requestTimeoutMs, ceilingMs);
  // A caller that follows no progress gets its answer within the call's timeout, progress or not.
  const totalMs = callOptions.progressExtendsTimeout === false ? idleMs : ceilingMs;
  for (let attempt = 0; ; attempt += 1) {
    const own = combineSignals([callOptions.signal]);
    const { dispose } = own;
    const deadline = setTimeout(() => own.abort(TOTAL_TIMEOUT), totalMs);
    // The SDK may keep a task's progress handler after the call; it then holds nothing of the caller.
    const progressTarget = { callback: callOptions.onProgress };
    try {
      const value = await run({
        signal: own.signal,
        timeout: idleMs,
        maxTotalTimeout: totalMs,
        resetTimeoutOnProgress: true,
        // Always asked for: a progress token is what lets a long call's progress keep it alive.
        onprogress: (progress: McpProgress) => progressTarget.callback?.(progress),
      });
      return { ok: true, value };
    } catch (error) {
      if (error instanceof UnauthorizedError && attempt === 0 && !own.signal.aborted && (await core.auth.complete(core.transport).catch(() => false))) continue;
      return await classifyRequestFailure(core, error, { what, callerSignal: callOptions.signal, ownSignal: own.signal, idleMs, totalMs });
    } finally {
      progressTarget.callback = undefined;
      clearTimeout(deadline);
      dispose();
    }
  }
}
