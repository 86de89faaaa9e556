// Over HTTP nothing closes when the server dies or forgets the session: requests fail (fetch errors, HTTP
// 404) and streams drop, each reported through `onerror` or a rejected request. Any such failure is checked
// with one `ping`; if that fails below JSON-RPC too, the server is unavailable and the client is closed, which
// also fails every request still waiting for an answer. A JSON-RPC answer (even an error) or a ping timeout
// means the server is still there.
import { ProtocolError } from '@modelcontextprotocol/client';
import type { McpConnectionCore } from './mcp-connection-core.js';
import { describeHttpFailure, isUnauthorized } from './read-mcp-error.js';

/** Ceiling of the `ping` that decides whether an HTTP server that failed a request is still there. */
const PROBE_TIMEOUT_MS = 5_000;

/** The parts of a connection the probe needs. */
export type LivenessProbeParts = Pick<McpConnectionCore, 'config' | 'state' | 'client' | 'requestTimeoutMs' | 'becomeUnauthorized'>;

/** The probe of one connection: a ping shared by whoever asks while it runs; nothing for stdio or a connection not (or no longer) up. */
export function createHttpLivenessProbe(core: LivenessProbeParts): () => Promise<void> {
  const { config, state } = core;
  let probing: Promise<void> | undefined;
  const onPingFailed = (error: unknown): void => {
    if (error instanceof ProtocolError || state.status !== 'connected' || state.closedByUs) return;
    if (isUnauthorized(error)) core.becomeUnauthorized();
    else state.becomeUnavailable('unreachable', describeHttpFailure(config.name, error));
    void core.client.close().catch(() => undefined);
  };
  return () => {
    if (config.transport === 'stdio' || !state.started || state.status !== 'connected' || state.closedByUs) return Promise.resolve();
    probing ??= check(core)
      .then(() => undefined, onPingFailed)
      .finally(() => {
        probing = undefined;
      });
    return probing;
  };
}

/** `ping`; 2026-07-28 has none, and `server/discover` is the request every such server answers. */
function check(core: LivenessProbeParts): Promise<unknown> {
  const timeout = Math.min(core.requestTimeoutMs, PROBE_TIMEOUT_MS);
  return core.client.getProtocolEra() === 'modern' ? core.client.discover({ timeout }) : core.client.ping({ timeout });
}
