// What a host is made of and offers its MCP servers: the options of `createToolSearchHost`.
import type { Embedder, EmbeddingCache } from '@tool-search/catalog';
import type { Thesaurus } from '@tool-search/catalog/wordnet';
import type { ProbeResult, Runner } from '@tool-search/sandbox-runner';
import type { LoggingLevel } from '@modelcontextprotocol/client';
import type { Logger } from 'pino';
import type { ExecutableTool } from '../executable-tool.js';
import type {
  McpElicitationHandler,
  McpOAuthOptions,
  McpRoot,
  McpSamplingHandler,
  RestartBackoff,
  StdioServersAhead,
} from '../mcp-client/index.js';
import type { OpenTelemetryOptions } from '../otel/gateway-spans.js';
import type { ToolSearchEnv } from '../resolve-tool-search-config.js';
import type { McpServerConfig } from '../schemas.js';
import type { CodeRunLimits } from '../shared/index.js';
import type { PluginSpec } from './load-plugin-tools.js';

/** The tools a host owns, by source (client tools belong to sessions). */
export interface ToolSearchHostSources {
  /** OpenClaw core tools (owner `core` unless a tool names its own). */
  openclaw?: ExecutableTool[];
  /** Plugin modules loaded by path (see `loadPluginTools`); owner = plugin name. */
  plugins?: PluginSpec[];
  /** MCP servers to start and keep running (stdio children or Streamable HTTP); owner = server name. */
  mcp?: McpServerConfig[];
}

/** Options of `createToolSearchHost`. */
export interface CreateToolSearchHostOptions {
  sources: ToolSearchHostSources;
  logger?: Logger | undefined;
  /** Base folder for relative plugin paths. Default `process.cwd()`. */
  cwd?: string | undefined;
  /**
   * What the host's OpenTelemetry spans record beyond their default attributes (arguments, results and query
   * text are off by default). Spans and metrics go to the global providers of `@opentelemetry/api`: with no SDK
   * registered they cost nothing.
   */
  openTelemetry?: OpenTelemetryOptions | undefined;
  /** Timeout of MCP connect and list requests. Default 30,000 ms. */
  mcpRequestTimeoutMs?: number | undefined;
  /** How long the first `openSession` waits for servers still starting. Default 5,000 ms; later sessions never wait. */
  startupTimeoutMs?: number | undefined;
  /**
   * How long a search, describe or call that names an MCP server still making its first connection waits for it;
   * past it the answer says the server is starting (never that the tool is unknown). Default 3,000 ms.
   */
  startingWaitMs?: number | undefined;
  /**
   * MCP server connections made at once (first starts and restarts); the others wait their turn, in config order,
   * so the first servers are searchable sooner than if a hundred started together. Default 8.
   */
  maxConcurrentStarts?: number | undefined;
  /** Reconnect backoff of MCP servers that fail or go away (default 1 s doubling to 30 s); `false`: never. */
  restartBackoff?: RestartBackoff | undefined;
  /** Replaces `probeRuntime` for the code-mode decision (run once per host). */
  probe?: (() => Promise<ProbeResult>) | undefined;
  /** A sandbox runner shared by code-mode sessions; by default one is created on first use and closed with the host. */
  runner?: Runner | undefined;
  /** Warm sandbox children of the runner the host creates. Default 2. */
  sandboxPoolSize?: number | undefined;
  /**
   * How many code-mode runs run at once (host-wide and per session) and how many may wait; past that a run
   * answers `busy`. Default: twice the cores, at most what a quarter of the memory holds (see docs/session.md, "Code runs").
   */
  codeRuns?: CodeRunLimits | undefined;
  /** Environment for `resolveToolSearchConfig` (`TOOL_SEARCH_MODE`). Default: none. */
  env?: ToolSearchEnv | undefined;
  /** What the host offers MCP servers as their client: roots, elicitation, sampling, OAuth, the log level it takes. */
  mcpClient?: McpClientOptions | undefined;
  /**
   * Stdio servers already spawned (`spawnStdioServersAhead` on the same configs): a server's first connection takes
   * its process when it was spawned with the same command, arguments, environment and folder. Those not taken stay
   * the caller's to close.
   */
  spawnedAhead?: StdioServersAhead | undefined;
  /**
   * Sessions that pass a policy config (not a compiled `Policy`) share the compiled policy and its catalog views
   * with every session whose config has the same content (equal after sorting object keys). This many views, and
   * as many compiled policies, are kept, least recently used first out. Default 64; 0 keeps none.
   */
  policyCacheSize?: number | undefined;
  /**
   * A text-embedding model (`createOpenAiEmbedder`): each `tool_search` then embeds its queries and fuses the
   * lexical ranking with the nearest tools; when the embedder fails, searches answer lexically (logged).
   */
  embedder?: Embedder | undefined;
  /** Where tool vectors are kept (`createFileEmbeddingCache` keeps them across restarts). Default: in memory. */
  embeddingCache?: EmbeddingCache | undefined;
  /**
   * Relatives of query words no tool has, read when a search's own words answer it weakly (see the catalog's
   * `thesaurus`). Default: the WordNet thesaurus of `@tool-search/catalog/wordnet` (parsed on the first weak
   * search, about 13 MB of heap once per process); `false` searches without one.
   */
  thesaurus?: Thesaurus | false | undefined;
}

/** The MCP client capabilities of a host (each default is the safe one). */
export interface McpClientOptions {
  /** Roots offered to every server. Default: none (the capability is not declared). */
  roots?: McpRoot[] | undefined;
  /** Answers a server's elicitation requests. Default: decline, so the tool gets an answer it can report. */
  onElicitation?: McpElicitationHandler | undefined;
  /** Answers a server's sampling requests. Default: refuse with an error the model can read. */
  onSampling?: McpSamplingHandler | undefined;
  /** Lowest server log level taken (asked of servers with `logging/setLevel`). Default `info`. */
  logLevel?: LoggingLevel | undefined;
  /** OAuth for HTTP servers whose config has `oauth`: the token store and how to ask the user. */
  oauth?: McpOAuthOptions | undefined;
}
