// The start of a connection: `initialize` (once more after an interactive authorization), the first full tool list
// (retried once when the server asks for a token only then), the log level. A failed start marks the connection
// `unavailable` or `unauthorized` with the reason and stops what was started; it never throws.
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { UnauthorizedError } from '@modelcontextprotocol/client';
import { listOfferedTools } from './list-offered-tools.js';
import { TrackedStdioClientTransport } from './tracked-stdio-client-transport.js';
import type { McpConnectionCore } from './mcp-connection-core.js';
import { describeStartFailure, errorText, isUnauthorized } from './read-mcp-error.js';

/** Starts the connection; afterwards it is `connected` with its tools listed, or says why not. */
export async function startMcpConnection(core: McpConnectionCore): Promise<void> {
  const { state } = core;
  const connecting = { probedStdioFailed: false };
  try {
    const negotiated = await initializeWithAuthorization(core, connecting);
    if (core.transport instanceof StdioClientTransport) state.pid = core.transport.pid ?? undefined;
    // A server may let `initialize` through and ask for a token on the first real request.
    const listed = await listOfferedTools(core).catch(async (error: unknown) => {
      if (!(error instanceof UnauthorizedError) || !(await core.auth.complete(core.transport))) throw error;
      return listOfferedTools(core);
    });
    state.tools = listed.offered;
    state.withheld = listed.withheld;
    if (core.features().logging) await core.client.setLoggingLevel(core.logLevel, { timeout: core.requestTimeoutMs }).catch(() => undefined);
    await listenForChanges(core);
    state.started = true;
    const era = { era: core.client.getProtocolEra(), protocolVersion: core.client.getNegotiatedProtocolVersion(), ...negotiated };
    core.log.info({ tools: state.tools.size, withheld: state.withheld.length, ...era }, 'mcp server connected');
  } catch (error) {
    await failStart(core, error, connecting);
  }
}

/** Connects (probing the era unless a fresh verdict says it); how long it took, and whether it probed. */
async function initializeWithAuthorization(core: McpConnectionCore, connecting: { probedStdioFailed: boolean }): Promise<{ probed: boolean; connectMs: number }> {
  const { options } = core;
  for (let attempt = 0; ; attempt += 1) {
    const prior = options.eraVerdicts?.read();
    const started = performance.now();
    // The SDK's era probe does not watch the connect signal (a silent stdio server would hold a closing host for
    // the whole probe timeout); closing the transport ends the probe at once, as the SDK documents.
    const stopProbe = () => void core.transport.close().catch(() => undefined);
    options.signal?.addEventListener('abort', stopProbe, { once: true });
    try {
      await core.client.connect(core.transport, {
        timeout: core.requestTimeoutMs,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(prior === undefined ? {} : { prior }),
      });
      const discover = core.client.getDiscoverResult();
      // A probe that timed out is no verdict (a slow 2026-07-28 server looks so under load): the next connect probes.
      if (prior === undefined && !probeTimedOut(core)) options.eraVerdicts?.remember(discover === undefined ? { kind: 'legacy' } : { kind: 'modern', discover });
      return { probed: prior === undefined, connectMs: Math.round(performance.now() - started) };
    } catch (error) {
      connecting.probedStdioFailed = prior === undefined && core.config.transport === 'stdio' && options.signal?.aborted !== true && !probeTimedOut(core);
      if (!(error instanceof UnauthorizedError) || attempt > 0 || !(await core.auth.complete(core.transport))) throw error;
      // The code is exchanged; a new client and transport start over with the token.
      await core.replaceClient();
    } finally {
      options.signal?.removeEventListener('abort', stopProbe);
    }
  }
}

/** Whether this connect's stdio era probe went unanswered until the SDK gave up on it (see TrackedStdioClientTransport). */
function probeTimedOut(core: McpConnectionCore): boolean {
  return core.transport instanceof TrackedStdioClientTransport && core.transport.probeTimedOut;
}

/**
 * On a 2026-07-28 connection nothing arrives unsolicited: the list changes the server announces come on one
 * `subscriptions/listen` stream, dispatched to the same handlers a 2025 server's notifications reach.
 */
async function listenForChanges(core: McpConnectionCore): Promise<void> {
  if (core.client.getProtocolEra() !== 'modern') return;
  const capabilities = core.client.getServerCapabilities() ?? {};
  const filter = {
    ...(capabilities.tools?.listChanged === true ? { toolsListChanged: true } : {}),
    ...(capabilities.prompts?.listChanged === true ? { promptsListChanged: true } : {}),
    ...(capabilities.resources?.listChanged === true ? { resourcesListChanged: true } : {}),
  };
  if (Object.keys(filter).length === 0) return;
  await core.client.listen(filter, { timeout: core.requestTimeoutMs }).then(
    (subscription) => core.log.debug({ honored: subscription.honoredFilter }, 'mcp listening for changes'),
    (error: unknown) => core.log.warn({ err: core.redact(errorText(error)) }, 'mcp subscriptions/listen failed; list changes will not be followed'),
  );
}

async function failStart(core: McpConnectionCore, error: unknown, connecting: { probedStdioFailed: boolean }): Promise<void> {
  // Our stdio transport is probed in place (the SDK's disposable sibling probe needs its base class), so a 2025
  // server that exits on any request before `initialize` (as servers on the Rust SDK do) dies of the probe: the
  // next start goes straight to `initialize`. Otherwise (a verdict that led to a failed start may be stale, or the
  // probe timed out, which says nothing of the era) the next start probes again.
  if (connecting.probedStdioFailed) core.options.eraVerdicts?.remember({ kind: 'legacy' });
  else core.options.eraVerdicts?.forget();
  // The stderr of a process that died is read to its end before the reason quotes it.
  await new Promise((resolve) => setTimeout(resolve, 20));
  if (isUnauthorized(error)) core.becomeUnauthorized();
  else core.state.becomeUnavailable('start_failed', withStderr(core, `MCP server "${core.config.name}" failed to start: ${core.redact(describeStartFailure(error))}`));
  core.state.closedByUs = true;
  await core.stop();
}

/** The reason, followed by the last lines the server wrote to stderr, if any. */
function withStderr(core: McpConnectionCore, reason: string): string {
  const lines = core.stderr.lines();
  return lines.length === 0 ? reason : `${reason}. Last stderr lines:\n${lines.join('\n')}`;
}
