// The SDK client of a connection: what it declares, how it answers the server's requests (elicitation, sampling,
// roots), which notifications it follows, and what a closed or failing transport means.
import { Client } from '@modelcontextprotocol/client';
import { answerServerQuestion } from './answer-server-questions.js';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import type { ConnectMcpServerOptions } from './connect-mcp-server-options.js';
import { createSdkSchemaValidator } from './create-sdk-schema-validator.js';
import { deliverServerLog } from './deliver-server-log.js';
import { MAX_LIST_PAGES } from './list-offered-tools.js';
import type { McpConnectionCore } from './mcp-connection-core.js';

/**
 * How long the `server/discover` probe may wait on stdio, where silence means a 2025-era server and the SDK then
 * falls back to `initialize`: a silent server would otherwise stall every start for the whole request timeout.
 * Over HTTP silence is an outage, so the probe gets the request timeout there. `stdioEraProbeTimeoutMs` overrides it.
 */
export const STDIO_PROBE_TIMEOUT_MS = 5_000;

/** Makes the clients of one connection (a second one only after an interactive authorization at start). */
export function createMcpClientFactory(core: McpConnectionCore): () => Client {
  const capabilities = clientCapabilities(core.options);
  const jsonSchemaValidator = createSdkSchemaValidator(core.compiler);
  // Both eras: a server that serves only 2026-07-28 is reached through `server/discover`, a 2025 one through
  // `initialize` after the probe (skipped when the connection has a fresh verdict, see create-era-verdict-cache).
  const probeTimeoutMs = core.config.transport === 'stdio' ? Math.min(core.requestTimeoutMs, core.options.stdioEraProbeTimeoutMs ?? STDIO_PROBE_TIMEOUT_MS) : core.requestTimeoutMs;
  const versionNegotiation = { mode: 'auto' as const, probe: { timeoutMs: probeTimeoutMs } };
  return () => {
    const created = new Client(core.options.clientInfo ?? { name: 'tool-search-gateway', version: '0.0.0' }, { capabilities, jsonSchemaValidator, versionNegotiation, listMaxPages: MAX_LIST_PAGES });
    answerServerRequests(created, core);
    followNotifications(created, core);
    watchTransport(created, core);
    return created;
  };
}

function clientCapabilities(options: ConnectMcpServerOptions): ClientCapabilities {
  return {
    elicitation: { form: options.onElicitation === undefined ? {} : { applyDefaults: true } },
    sampling: {},
    ...(options.roots === undefined ? {} : { roots: { listChanged: true } }),
  };
}

function answerServerRequests(created: Client, core: McpConnectionCore): void {
  const { config, options } = core;
  // A 2026-07-28 server sends no requests of its own: a call's questions come in its `input_required` result, which
  // callWithInputRounds answers (a request or a prompt's rounds the SDK drives, through these handlers, the entry's
  // key as the request id).
  const context = (ctx: { mcpReq: { id: string | number; signal: AbortSignal } }) => ({
    server: config.name,
    signal: ctx.mcpReq.signal,
    ...(created.getProtocolEra() === 'modern' ? { inputKey: String(ctx.mcpReq.id) } : {}),
  });
  created.setRequestHandler('elicitation/create', async (request, ctx) => (await answerServerQuestion(core, request, context(ctx))) as never);
  created.setRequestHandler('sampling/createMessage', async (request, ctx) => (await answerServerQuestion(core, request, context(ctx))) as never);
  if (options.roots !== undefined) created.setRequestHandler('roots/list', async () => ({ roots: core.roots }));
}

function followNotifications(created: Client, core: McpConnectionCore): void {
  const { options } = core;
  created.setNotificationHandler('notifications/tools/list_changed', () => core.relist());
  created.setNotificationHandler('notifications/message', (notification) => deliverServerLog(core, notification.params));
  created.setNotificationHandler('notifications/resources/list_changed', () => options.onListChanged?.('resources'));
  created.setNotificationHandler('notifications/prompts/list_changed', () => options.onListChanged?.('prompts'));
}

function watchTransport(created: Client, core: McpConnectionCore): void {
  const { config, state } = core;
  created.onclose = () => {
    state.pid = undefined;
    // While connecting, a close is reported by the failed connect itself (as "failed to start"). The reason of
    // an exit stays short and stable; what the process printed last is in `stderrTail()`.
    if (state.started && created === core.client) state.becomeUnavailable(state.closedByUs ? 'closed' : 'exited', `MCP server "${config.name}" exited or closed its connection`);
  };
  created.onerror = (error) => {
    core.log.debug({ err: core.redact(error.message) }, 'mcp transport error');
    if (created === core.client) void core.confirmAlive();
  };
}
