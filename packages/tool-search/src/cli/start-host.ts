// Starts the host for a command: the config's MCP servers, the OAuth token store, the client relay, and a
// progress line on stderr as each server starts (or does not, with its reason).
import { createOpenAiEmbedder, type Embedder } from '@tool-search/catalog';
import {
  createFileEmbeddingCache,
  createFileTokenStore,
  createToolSearchHost,
  type FileEmbeddingCache,
  type McpOAuthOptions,
  type OAuthTokenStore,
  type StdioServersAhead,
  type ToolSearchHost,
} from '@tool-search/gateway-adapter';
import type { McpClientRelay } from '@tool-search/mcp-server';
import type { Logger } from 'pino';
import type { CliOutput } from './cli-io.js';
import { createOAuthAuthorizer } from './create-oauth-authorizer.js';
import type { LoadedConfig } from './load-config.js';

/** The host of a command, with the relay its MCP sessions use. */
export interface StartedHost {
  host: ToolSearchHost;
  relay: McpClientRelay;
  /** The config's embedder and its disk cache, when it has one. */
  embedder: { embedder: Embedder; cache: FileEmbeddingCache } | undefined;
  /** Resolves when every server has had its first start (ready or not), or after `timeoutMs`. */
  settled(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

const POLL_MS = 50;

export async function startHost(
  config: LoadedConfig,
  options: { logger: Logger; output: CliOutput; startupTimeoutMs?: number; interactiveOAuth: boolean; spawnedAhead?: StdioServersAhead; tokenStore?: OAuthTokenStore | undefined },
): Promise<StartedHost> {
  const { output } = options;
  // The servers start first; the MCP server side loads while they do (the relay is needed only once they ask).
  let relayLoaded: Promise<McpClientRelay> | undefined;
  const loadRelay = () => (relayLoaded ??= import('@tool-search/mcp-server').then(({ createMcpClientRelay }) => createMcpClientRelay({ logger: options.logger })));
  const authorizer = options.interactiveOAuth ? createOAuthAuthorizer({ output, redirectUrl: config.oauth.redirectUrl }) : undefined;
  const oauth: McpOAuthOptions = {
    // A shared store (serve --store) where replicas share tokens; else files on this machine.
    store: options.tokenStore ?? createFileTokenStore(config.oauth.tokenDir),
    ...(authorizer === undefined ? {} : { authorize: authorizer.authorize }),
    redirectUrl: config.oauth.redirectUrl,
  };
  const startupTimeoutMs = options.startupTimeoutMs ?? config.startupTimeoutMs;
  // The config's options were checked when it loaded; the cache folder is made on its first write.
  const embedder =
    config.embedder === undefined
      ? undefined
      : {
          embedder: createOpenAiEmbedder(config.embedder.options),
          cache: createFileEmbeddingCache({
            dir: config.embedder.cacheDir,
            logger: options.logger,
            maxEntries: config.embedder.cacheMaxEntries,
          }),
        };
  if (config.servers.length > 0) output.progress(`Starting ${config.servers.length} MCP server${config.servers.length === 1 ? '' : 's'}: ${config.servers.map((server) => server.name).join(', ')}`);
  const started = Date.now();
  const host = await createToolSearchHost({
    sources: { mcp: config.servers },
    logger: options.logger,
    spawnedAhead: options.spawnedAhead,
    startupTimeoutMs,
    startingWaitMs: config.startingWaitMs,
    maxConcurrentStarts: config.maxConcurrentStarts,
    ...(embedder === undefined ? {} : { embedder: embedder.embedder, embeddingCache: embedder.cache }),
    ...(config.thesaurus === 'none' ? { thesaurus: false as const } : {}),
    codeRuns: config.codeRuns,
    mcpClient: {
      onSampling: async (request, context) => (await loadRelay()).onSampling(request, context),
      onElicitation: async (request, context) => (await loadRelay()).onElicitation(request, context),
      oauth, logLevel: config.serverLogLevel },
  });
  const relay = await loadRelay();
  for (const warning of config.warnings) output.progress(`warning: ${warning}`);
  for (const server of config.failedServers) output.progress(`  ✗ ${server.name}: ${server.reason}`);

  // One progress line per server, when its first start ends.
  const reported = new Set<string>();
  const report = () => {
    for (const server of host.status().servers) {
      if (reported.has(server.name) || server.state === 'starting') continue;
      reported.add(server.name);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      output.progress(server.state === 'ready' ? `  ✓ ${server.name}: ready, ${server.tools} tools (${seconds} s)` : `  ✗ ${server.name}: ${(server.reason ?? server.state).replace(/\n/g, '\n      ')}`);
    }
    return reported.size === config.servers.length;
  };
  const watcher = setInterval(report, POLL_MS);
  watcher.unref();

  return {
    host,
    relay,
    embedder,
    async settled(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (!report() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      clearInterval(watcher);
      for (const server of host.status().servers) {
        if (!reported.has(server.name)) output.progress(`  … ${server.name}: still starting after ${(timeoutMs / 1000).toFixed(1)} s`);
      }
    },
    async close() {
      clearInterval(watcher);
      await authorizer?.close();
      await host.close();
    },
  };
}
