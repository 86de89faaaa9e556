// The SDK client of a connection: what it declares, how it answers the server's requests (elicitation, sampling,
// roots), which notifications it follows, and what a closed or failing transport means.
import { Client, ProtocolError } from '@modelcontextprotocol/client';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import type { ConnectMcpServerOptions } from './connect-mcp-server-options.js';
import { createSdkSchemaValidator } from './create-sdk-schema-validator.js';
import { deliverServerLog } from './deliver-server-log.js';
import type { McpConnectionCore } from './mcp-connection-core.js';

/** Makes the clients of one connection (a second one only after an interactive authorization at start). */
export function createMcpClientFactory(core: McpConnectionCore): () => Client {
  const capabilities = clientCapabilities(core.options);
  const jsonSchemaValidator = createSdkSchemaValidator(core.compiler);
  return () => {
    const created = new Client(core.options.clientInfo ?? { name: 'tool-search-gateway', version: '0.0.0' }, { capabilities, jsonSchemaValidator });
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
  const { config, options, log } = core;
  created.setRequestHandler('elicitation/create', async (request, ctx) => {
    if (options.onElicitation) return options.onElicitation(request.params, { server: config.name, signal: ctx.mcpReq.signal });
    log.info({ mode: request.params.mode ?? 'form' }, 'mcp elicitation declined (no handler)');
    return { action: 'decline' };
  });
  created.setRequestHandler('sampling/createMessage', async (request, ctx) => {
    if (options.onSampling) return options.onSampling(request.params, { server: config.name, signal: ctx.mcpReq.signal });
    throw new ProtocolError(-1, `Sampling is not available: the gateway does not let MCP server "${config.name}" ask its model for completions`);
  });
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
