// The start of a connection: `initialize` (once more after an interactive authorization), the first full tool list
// (retried once when the server asks for a token only then), the log level. A failed start marks the connection
// `unavailable` or `unauthorized` with the reason and stops what was started; it never throws.
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { UnauthorizedError } from '@modelcontextprotocol/client';
import { listOfferedTools } from './list-offered-tools.js';
import type { McpConnectionCore } from './mcp-connection-core.js';
import { errorText, isUnauthorized } from './read-mcp-error.js';

/** Starts the connection; afterwards it is `connected` with its tools listed, or says why not. */
export async function startMcpConnection(core: McpConnectionCore): Promise<void> {
  const { state } = core;
  try {
    await initializeWithAuthorization(core);
    if (core.transport instanceof StdioClientTransport) state.pid = core.transport.pid ?? undefined;
    // A server may let `initialize` through and ask for a token on the first real request.
    const listed = await listOfferedTools(core).catch(async (error: unknown) => {
      if (!(error instanceof UnauthorizedError) || !(await core.auth.complete(core.transport))) throw error;
      return listOfferedTools(core);
    });
    state.tools = listed.offered;
    state.withheld = listed.withheld;
    if (core.features().logging) await core.client.setLoggingLevel(core.logLevel, { timeout: core.requestTimeoutMs }).catch(() => undefined);
    state.started = true;
    core.log.info({ tools: state.tools.size, withheld: state.withheld.length }, 'mcp server connected');
  } catch (error) {
    await failStart(core, error);
  }
}

async function initializeWithAuthorization(core: McpConnectionCore): Promise<void> {
  const { options } = core;
  for (let attempt = 0; ; attempt += 1) {
    try {
      await core.client.connect(core.transport, { timeout: core.requestTimeoutMs, ...(options.signal === undefined ? {} : { signal: options.signal }) });
      return;
    } catch (error) {
      if (!(error instanceof UnauthorizedError) || attempt > 0 || !(await core.auth.complete(core.transport))) throw error;
      // The code is exchanged; a new client and transport start over with the token.
      await core.replaceClient();
    }
  }
}

async function failStart(core: McpConnectionCore, error: unknown): Promise<void> {
  // The stderr of a process that died is read to its end before the reason quotes it.
  await new Promise((resolve) => setTimeout(resolve, 20));
  if (isUnauthorized(error)) core.becomeUnauthorized();
  else core.state.becomeUnavailable('start_failed', withStderr(core, `MCP server "${core.config.name}" failed to start: ${core.redact(errorText(error))}`));
  core.state.closedByUs = true;
  await core.stop();
}

/** The reason, followed by the last lines the server wrote to stderr, if any. */
function withStderr(core: McpConnectionCore, reason: string): string {
  const lines = core.stderr.lines();
  return lines.length === 0 ? reason : `${reason}. Last stderr lines:\n${lines.join('\n')}`;
}
