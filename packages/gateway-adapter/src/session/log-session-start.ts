// What a session writes when it starts: the mode it renders and why, the catalog it sees, the servers not ready.
import type { Logger } from 'pino';
import type { ToolSearchModeDecision } from '../decide-tool-search-mode.js';
import type { HostCore } from '../host/index.js';
import type { AllowedTools } from './allowed-tools.js';
import type { SessionEmit } from './session-event.js';

/** Why a server is not ready, as the operator's log line says it. */
function downReason(host: HostCore, server: string): string | undefined {
  const down = host.serverDown(server);
  return down === undefined ? undefined : `MCP server "${server}" is ${down.state}: ${down.reason}`;
}

/** The `session.start` event, and one `mcp.unavailable` per server that is not ready at open. */
export function logSessionStart(host: HostCore, facts: { decision: ToolSearchModeDecision; directReason: string | undefined; tools: AllowedTools; emit: SessionEmit }): void {
  const { decision, tools, emit } = facts;
  const down = host.unavailableServers();
  emit({ kind: 'session.start', fields: {
    mode: decision.mode,
    requestedMode: decision.requestedMode,
    directReason: facts.directReason,
    autoReason: decision.autoReason,
    catalogSize: tools.view.size,
    sources: { ...tools.view.sources(), client: tools.clientInputs().length },
    mcpServers: down.map((server) => ({ name: server, status: 'unavailable', reason: downReason(host, server) })),
  } });
  for (const server of down) emit({ kind: 'mcp.unavailable', fields: { server, reason: downReason(host, server) } });
}

/** A code mode that could not start, in the log and the session log. */
export function reportFallback(decision: ToolSearchModeDecision, log: Logger, emit: SessionEmit): void {
  if (decision.fallbackReason === undefined) return;
  log.warn({ requestedMode: decision.requestedMode, mode: decision.mode, reason: decision.fallbackReason }, 'code mode unavailable, falling back');
  emit({ kind: 'fallback', fields: { requestedMode: decision.requestedMode, mode: decision.mode, reason: decision.fallbackReason } });
}
