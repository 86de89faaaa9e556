// What a session hears of its host: each catalog change, written for the session (naming only the tools its
// policy admits), and passed on to the session's owner.
import type { PolicyTool } from '@tool-search/policy';
import type { Logger } from 'pino';
import type { HostCore, HostEvent } from '../host/index.js';
import type { AllowedTools } from './allowed-tools.js';
import type { SessionParts } from './session-parts.js';
import type { SessionEmit } from './session-event.js';

/** Logs each host change for the session and tells its owner; returns the unsubscribe. */
export function followHost(host: HostCore, parts: SessionParts, onCatalogChange: (() => void) | undefined): () => void {
  return host.subscribe((change) => {
    logHostEvent(change, parts.tools, parts.emit);
    notifyCatalogChange(onCatalogChange, parts.log);
  });
}

/** Tells the session's owner the catalog changed; a throwing listener must not break the host's change event. */
function notifyCatalogChange(listener: (() => void) | undefined, log: Logger): void {
  if (listener === undefined) return;
  try {
    listener();
  } catch (error) {
    log.warn({ error: error instanceof Error ? error.message.slice(0, 200) : 'non-error thrown' }, 'catalog change listener failed');
  }
}

/** Writes what a host change means for this session, naming only tools its policy admits. */
function logHostEvent(change: HostEvent, tools: AllowedTools, emit: SessionEmit): void {
  const admitted = (list: readonly PolicyTool[]) => list.filter((tool) => tools.admits(tool));
  switch (change.type) {
    case 'tools_changed':
      emit({ kind: 'mcp.tools_changed', fields: { server: change.server, added: admitted(change.added).map((tool) => tool.id), removed: admitted(change.removed).map((tool) => tool.id) } });
      return;
    case 'server_down':
      emit({ kind: 'mcp.unavailable', fields: { server: change.server, reason: change.reason, tools: admitted(change.tools).length } });
      return;
    case 'server_up':
      emit({ kind: 'mcp.available', fields: { server: change.server, tools: admitted(change.tools).length } });
      return;
  }
}
