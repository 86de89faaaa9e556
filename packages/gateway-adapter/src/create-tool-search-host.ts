// The long-lived host as the package offers it: the host (`host/`) started once, and the per-run sessions
// (`session/`) opened on it. This file is where the two meet; the host itself knows no session.
import { GatewayAdapterError } from './errors.js';
import { startHost, type CreateToolSearchHostOptions, type HostMcpServer, type HostStatus } from './host/index.js';
import { openToolSearchSession, type OpenSessionOptions } from './session/index.js';
import type { ToolSearchSession } from './tool-search-session.js';
import type { EmbeddingUpdate } from '@tool-search/catalog';

/** A long-lived host of tool-search sessions. */
export interface ToolSearchHost {
  status(): HostStatus;
  /** The configured MCP servers, for resources, prompts and completions. */
  mcpServers(): HostMcpServer[];
  /** Opens a session: its own policy view of the one catalog, client tools, pins, hooks, log and telemetry. */
  openSession(options: OpenSessionOptions): Promise<ToolSearchSession>;
  /**
   * Embeds the catalog's tools that have no vector yet (from the cache when it has them) with the host's embedder:
   * what the first semantic search would otherwise wait for. Without an embedder it embeds nothing.
   */
  updateEmbeddings(): Promise<EmbeddingUpdate>;
  /** Closes every open session, stops the MCP servers and the runner the host created. */
  close(): Promise<void>;
}

/**
 * Creates a host: loads the plugins (a plugin that cannot be loaded throws `plugin_load_failed`), catalogues
 * the local tools, and starts every MCP server in parallel without waiting for them. A server that becomes
 * ready later joins the catalog; one that dies is restarted with backoff, its tools unavailable meanwhile.
 */
export async function createToolSearchHost(options: CreateToolSearchHostOptions): Promise<ToolSearchHost> {
  const host = await startHost(options);
  const sessions = new Set<ToolSearchSession>();
  let closed = false;
  return {
    status: () => host.status(sessions.size),
    mcpServers: () => host.mcpServers(),
    updateEmbeddings: () => host.updateEmbeddings(),
    async openSession(sessionOptions) {
      if (closed) throw new GatewayAdapterError('session_closed', 'The tool-search host is closed: no session can be opened');
      const session = await openToolSearchSession(host.core, sessionOptions, { onClose: (closing) => sessions.delete(closing) });
      sessions.add(session);
      return session;
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...sessions].map((session) => session.close()));
      await host.close();
    },
  };
}
