// The config file of `tool-search`: JSON5, strict (an unknown key anywhere fails, naming its path), with the
// standard `mcpServers` map users already have, plus `toolSearch`, `policy`, `context` and our own options.
// Values may refer to the environment as `${env:NAME}`, `${NAME}` or `${NAME:-default}` (as in pasted configs).
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import {
  convertMcpServersConfig,
  MCP_LOG_LEVELS,
  isGatewayAdapterError,
  resolveToolSearchConfig,
  type FailedMcpServerEntry,
  type McpServerConfig,
  type ResolvedToolSearchConfig,
} from '@tool-search/gateway-adapter/startup';
import type { OpenAiEmbedderOptions } from '@tool-search/catalog';
import { createPolicy, isPolicyError, parsePolicyConfig, type Policy, type PolicyContext } from '@tool-search/policy';
import JSON5 from 'json5';
import { z } from 'zod';
import { CliError } from './cli-error.js';
import { readEnvFile } from './read-env-file.js';

const LOG_LEVELS = MCP_LOG_LEVELS;

const configFileSchema = z.strictObject({
  /** Editors' schema hint; ignored. */
  $schema: z.string().optional(),
  /** The MCP servers, as Claude Desktop, Cursor and Claude Code write them, plus our per-server options. */
  mcpServers: z.record(z.string(), z.unknown()).optional(),
  /** The tool-search setting (`{ mode: 'code' | 'tools' | 'directory', ... }`, `true`, or `false` for direct). Default `{ mode: 'tools' }`. */
  toolSearch: z.unknown().optional(),
  /** Which tools may be found and called (allow/deny patterns, groups, layers). Default: every tool. */
  policy: z.unknown().optional(),
  /** Who is asking, for the policy's layers and owner-only tools. */
  context: z
    .strictObject({
      agentId: z.string().optional(),
      profile: z.string().optional(),
      sandboxId: z.string().optional(),
      channel: z.string().optional(),
      runtime: z.string().optional(),
      senderId: z.string().optional(),
      isOwner: z.boolean().optional(),
    })
    .optional(),
  /** Tool ids (or unique names) listed directly in every mode. */
  visible: z.array(z.string().min(1)).optional(),
  /** How long the first MCP session waits for servers still starting. Default 5,000 ms (doctor: 15,000). */
  startupTimeoutMs: z.number().int().min(0).max(600_000).optional(),
  /**
   * How long a search, describe or call that names an MCP server still making its first connection waits for it;
   * past it the answer says the server is starting. Default 3,000 ms.
   */
  startingWaitMs: z.number().int().min(0).max(600_000).optional(),
  /** MCP server connections made at once (first starts and restarts); the others wait their turn. Default 8. */
  maxConcurrentStarts: z.number().int().min(1).max(1_000).optional(),
  /** Timeout of one tool call. Default 30,000 ms (an MCP call's progress resets it). */
  callTimeoutMs: z.number().int().min(1).max(3_600_000).optional(),
  /** Concurrent code-mode runs: host-wide, per session, and how many may wait (default from cores and memory). */
  codeRuns: z
    .strictObject({
      maxConcurrent: z.number().int().min(1).max(1_000).optional(),
      maxConcurrentPerSession: z.number().int().min(1).max(1_000).optional(),
      maxQueued: z.number().int().min(1).max(100_000).optional(),
    })
    .optional(),
  /** How long `serve` lets calls in flight finish once told to stop (SIGTERM, SIGINT). Default 5,000 ms. */
  drainTimeoutMs: z.number().int().min(0).max(600_000).optional(),
  /** Who answers the policy's `requireApproval`: `client` asks the MCP client whose call needs it. Default: nobody (blocked). */
  approvals: z.enum(['client']).optional(),
  /** Lowest level of the upstream servers' log messages taken (and forwarded to the client). Default `info`. */
  serverLogLevel: z.enum(LOG_LEVELS).optional(),
  /** OAuth for HTTP servers with `oauth`: where tokens are kept (0600 files) and the redirect URL. */
  oauth: z.strictObject({ tokenDir: z.string().min(1).optional(), redirectUrl: z.url().optional() }).optional(),
  /**
   * A text-embedding model for semantic ranking (any OpenAI-compatible `/embeddings` endpoint: OpenAI, Ollama,
   * TEI, llama.cpp's server, vLLM, LiteLLM). Without it, ranking is lexical.
   */
  embedder: z
    .strictObject({
      /** The API base; `/embeddings` is appended: `http://localhost:11434/v1`, `https://api.openai.com/v1`. */
      baseUrl: z.url({ protocol: /^https?$/ }),
      model: z.string().min(1).max(200),
      /** The name of the environment variable holding the API key (the key itself never goes in the file). */
      apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name').optional(),
      /** Vector length asked of models that support it (OpenAI's text-embedding-3). */
      dimensions: z.number().int().min(1).max(65_536).optional(),
      /** Texts per request. Default 64. */
      batchSize: z.number().int().min(1).max(2_048).optional(),
      /** Per-request timeout. Default 30,000 ms. */
      timeoutMs: z.number().int().min(1).max(600_000).optional(),
      /** Put before each query / tool text (models trained with prefixes: nomic-embed-text, e5). */
      queryPrefix: z.string().max(200).optional(),
      toolPrefix: z.string().max(200).optional(),
      /** Where tool vectors are kept across restarts. Default `$XDG_CACHE_HOME/tool-search/embeddings`. */
      cacheDir: z.string().min(1).optional(),
      /** Most vectors kept there (least recently used out). Default 20,000. */
      cacheMaxEntries: z.number().int().min(1).max(1_000_000).optional(),
    })
    .optional(),
  /**
   * Relatives of the words no tool has, read when a search's own words answer it weakly: `wordnet` (the default,
   * WordNet 3.1's synonyms and broader words) or `none`.
   */
  thesaurus: z.enum(['wordnet', 'none']).optional(),
  /** Where `serve` writes its session logs (one JSON-lines file per run; relative to the config file). Default: none. */
  sessionLogDir: z.string().min(1).optional(),
  /** `serve --http` options. */
  http: z
    .strictObject({
      allowedHosts: z.array(z.string().min(1)).optional(),
      allowedOrigins: z.array(z.string().min(1)).optional(),
      maxSessions: z.number().int().min(1).max(10_000).optional(),
      maxSessionsPerClient: z.number().int().min(1).max(10_000).optional(),
      idleTimeoutMs: z.number().int().min(1_000).optional(),
      /**
       * 2026-07-28 tool calls waiting between input rounds (for a client's answers to an upstream's questions) at
       * once in this process, and per client (remote address); past either, such a call is refused. Default 1,000 / 64.
       */
      maxPendingInputCalls: z.number().int().min(1).max(1_000_000).optional(),
      maxPendingInputCallsPerClient: z.number().int().min(1).max(1_000_000).optional(),
    })
    .optional(),
});

type ConfigFile = z.infer<typeof configFileSchema>;

/** A config file, read and checked. */
export interface LoadedConfig {
  path: string;
  servers: McpServerConfig[];
  /**
   * Servers that cannot start as written (a variable that is not set, a VS Code input, an unreadable `envFile`):
   * left out, each with what to do; every other server starts.
   */
  failedServers: Array<{ name: string; reason: string }>;
  /** Entries left out (`disabled: true`) and fields of other clients that are ignored, each naming its path. */
  warnings: string[];
  /** The raw tool-search setting (what sessions resolve), `{ mode: 'tools' }` when the file has none. */
  toolSearch: unknown;
  resolved: ResolvedToolSearchConfig;
  policy: Policy;
  context: PolicyContext;
  visible: string[];
  startupTimeoutMs: number | undefined;
  /** How long a request naming a server still starting waits for it; undefined: the host's default. */
  startingWaitMs: number | undefined;
  /** Server connections made at once; undefined: the host's default. */
  maxConcurrentStarts: number | undefined;
  callTimeoutMs: number | undefined;
  drainTimeoutMs: number | undefined;
  /** `client`: `serve` asks the MCP client whose call needs an approval; undefined: such calls are blocked. */
  approvals: 'client' | undefined;
  codeRuns: NonNullable<ConfigFile['codeRuns']> | undefined;
  serverLogLevel: (typeof LOG_LEVELS)[number] | undefined;
  oauth: { tokenDir: string; redirectUrl: string | undefined };
  http: NonNullable<ConfigFile['http']>;
  /** Where `serve` writes its session logs (absolute); undefined: nowhere. */
  sessionLogDir: string | undefined;
  /** The embedder's settings, the API key read from its variable; undefined when the file has no `embedder`. */
  embedder: ConfiguredEmbedder | undefined;
  /** `wordnet` unless the file says `none`. */
  thesaurus: 'wordnet' | 'none';
}

/** The `embedder` section, resolved: what `createOpenAiEmbedder` and `createFileEmbeddingCache` take. */
export interface ConfiguredEmbedder {
  options: OpenAiEmbedderOptions;
  cacheDir: string;
  cacheMaxEntries: number | undefined;
}

/** The config path when none is given: `$TOOL_SEARCH_CONFIG`, else `$XDG_CONFIG_HOME/tool-search/config.json5`. */
export function defaultConfigPath(env: NodeJS.ProcessEnv): string {
  if (env['TOOL_SEARCH_CONFIG'] !== undefined && env['TOOL_SEARCH_CONFIG'] !== '') return resolve(env['TOOL_SEARCH_CONFIG']);
  return join(configHome(env), 'tool-search', 'config.json5');
}

function cacheHome(env: NodeJS.ProcessEnv): string {
  return env['XDG_CACHE_HOME'] !== undefined && env['XDG_CACHE_HOME'] !== '' ? env['XDG_CACHE_HOME'] : join(env['HOME'] ?? homedir(), '.cache');
}

/** The `embedder` section with its key read from the environment and its cache folder resolved (relative: to the config's folder). */
function resolveEmbedder(section: NonNullable<ConfigFile['embedder']>, path: string, env: NodeJS.ProcessEnv): ConfiguredEmbedder {
  let apiKey: string | undefined;
  if (section.apiKeyEnv !== undefined) {
    apiKey = env[section.apiKeyEnv];
    if (apiKey === undefined || apiKey === '') {
      throw new CliError('config', `${path}: embedder.apiKeyEnv: the environment variable ${section.apiKeyEnv} is not set`, { path: 'embedder.apiKeyEnv' });
    }
  }
  return {
    options: {
      baseUrl: section.baseUrl,
      model: section.model,
      ...(apiKey === undefined ? {} : { apiKey }),
      ...(section.dimensions === undefined ? {} : { dimensions: section.dimensions }),
      ...(section.batchSize === undefined ? {} : { maxBatchSize: section.batchSize }),
      ...(section.timeoutMs === undefined ? {} : { timeoutMs: section.timeoutMs }),
      ...(section.queryPrefix === undefined ? {} : { queryPrefix: section.queryPrefix }),
      ...(section.toolPrefix === undefined ? {} : { toolPrefix: section.toolPrefix }),
    },
    cacheDir: section.cacheDir === undefined ? join(cacheHome(env), 'tool-search', 'embeddings') : resolve(dirname(path), section.cacheDir),
    cacheMaxEntries: section.cacheMaxEntries,
  };
}

function configHome(env: NodeJS.ProcessEnv): string {
  return env['XDG_CONFIG_HOME'] !== undefined && env['XDG_CONFIG_HOME'] !== '' ? env['XDG_CONFIG_HOME'] : join(env['HOME'] ?? homedir(), '.config');
}

/** Reads the JSON5 text of a file, or throws `CliError('config')` saying why (with line and column for syntax). */
export function readJson5File(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new CliError('config', missing ? `${what} ${path} does not exist${what === 'Config file' ? ' (create one with: tool-search init)' : ''}` : `${what} ${path} cannot be read: ${(error as Error).message}`);
  }
  try {
    return JSON5.parse(text);
  } catch (error) {
    const syntax = error as SyntaxError & { lineNumber?: number; columnNumber?: number };
    const where = syntax.lineNumber === undefined ? '' : `:${syntax.lineNumber}:${syntax.columnNumber ?? 0}`;
    throw new CliError('config', `${path}${where}: not valid JSON5: ${syntax.message.replace(/^JSON5: /, '')}`);
  }
}

/** Loads and checks a config file; every problem is a `CliError('config')` naming the file and the path. */
export function loadConfig(path: string, env: NodeJS.ProcessEnv): LoadedConfig {
  const raw = readJson5File(path, 'Config file');
  const parsed = configFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
    const at = [...issue.path, ...keys.slice(0, 1)].map(String).join('.');
    const message = issue.code === 'unrecognized_keys' ? `unknown key "${keys[0]}"` : issue.message;
    throw new CliError('config', `${path}: ${at === '' ? '' : `${at}: `}${message}`, { path: at });
  }
  const file = parsed.data;
  const inFile = <T>(run: () => T): T => {
    try {
      return run();
    } catch (error) {
      if (isGatewayAdapterError(error) || isPolicyError(error)) {
        const errorPath = (error as { path?: string }).path;
        throw new CliError('config', `${path}: ${error.message}`, { cause: error, ...(errorPath === undefined ? {} : { path: errorPath }) });
      }
      throw error;
    }
  };
  const variables = { userHome: env['HOME'] ?? homedir(), workspaceFolder: dirname(path) };
  const withEnvFiles = applyEnvFiles(file.mcpServers ?? {}, path, variables);
  const converted = inFile(() => convertMcpServersConfig({ mcpServers: withEnvFiles.servers }, { env, strict: true, variables, isolateServerProblems: true }));
  const failedServers = [...withEnvFiles.failed, ...converted.failed.map(describeFailedServer)];
  const toolSearch = file.toolSearch === undefined ? { mode: 'tools' } : file.toolSearch;
  const resolved = inFile(() => resolveToolSearchConfig(toolSearch));
  const policy = inFile(() => {
    const checked = parsePolicyConfig(file.policy ?? {});
    return createPolicy(checked);
  });
  return {
    path,
    servers: converted.servers,
    failedServers,
    warnings: [...converted.skipped.map((skipped) => `${skipped.name}: ${skipped.reason}`), ...converted.warnings],
    toolSearch,
    resolved,
    policy,
    context: file.context ?? {},
    visible: file.visible ?? [],
    startupTimeoutMs: file.startupTimeoutMs,
    startingWaitMs: file.startingWaitMs,
    maxConcurrentStarts: file.maxConcurrentStarts,
    callTimeoutMs: file.callTimeoutMs,
    drainTimeoutMs: file.drainTimeoutMs,
    approvals: file.approvals,
    codeRuns: file.codeRuns,
    serverLogLevel: file.serverLogLevel,
    oauth: { tokenDir: file.oauth?.tokenDir ?? join(configHome(env), 'tool-search', 'oauth'), redirectUrl: file.oauth?.redirectUrl },
    http: file.http ?? {},
    sessionLogDir: file.sessionLogDir === undefined ? undefined : resolve(dirname(path), file.sessionLogDir),
    embedder: file.embedder === undefined ? undefined : resolveEmbedder(file.embedder, path, env),
    thesaurus: file.thesaurus ?? 'wordnet',
  };
}

/** Why a server was left out, in the words of a CLI user (who sets variables in an environment, not in options). */
function describeFailedServer(failed: FailedMcpServerEntry): { name: string; reason: string } {
  const todo: string[] = [];
  if (failed.unsetVariables.length > 0) todo.push(`set ${failed.unsetVariables.join(', ')} in the environment tool-search runs in`);
  for (const input of failed.unansweredInputs) todo.push(`replace \${input:${input}} with \${env:NAME} and set NAME in the environment tool-search runs in`);
  return { name: failed.name, reason: `not started: ${failed.reason}; ${todo.length === 0 ? 'fix it' : todo.join(', or ')}, or remove the server` };
}

/**
 * Cursor's `envFile` on a server: its variables join the server's `env` (where both name one, `env` wins). A file
 * that cannot be read leaves that server out, with the reason; the others are untouched.
 */
function applyEnvFiles(
  servers: Record<string, unknown>,
  configPath: string,
  variables: Record<string, string>,
): { servers: Record<string, unknown>; failed: Array<{ name: string; reason: string }> } {
  const out: Record<string, unknown> = {};
  const failed: Array<{ name: string; reason: string }> = [];
  for (const [name, entry] of Object.entries(servers)) {
    const envFile = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>)['envFile'] : undefined;
    if (typeof envFile !== 'string') {
      out[name] = entry;
      continue;
    }
    const named = envFile.replace(/\$\{(userHome|workspaceFolder)\}/g, (_whole, variable: string) => variables[variable] ?? '');
    const file = isAbsolute(named) ? named : resolve(dirname(configPath), named);
    const read = readEnvFile(file);
    if (!read.ok) {
      failed.push({ name, reason: `not started: mcpServers.${name}.envFile: ${read.reason}; fix the path or put the variables in "env", or remove the server` });
      continue;
    }
    const { envFile: _envFile, env: ownEnv, ...rest } = entry as Record<string, unknown>;
    out[name] = { ...rest, env: { ...read.variables, ...(typeof ownEnv === 'object' && ownEnv !== null ? ownEnv : {}) } };
  }
  return { servers: out, failed };
}

/**
 * The tool-search setting with `--mode` applied: `direct` turns tool search off (every allowed tool listed);
 * the other modes (including `auto`, when the gateway knows it) replace the file's `mode`.
 */
export function withMode(toolSearch: unknown, mode: string | undefined): unknown {
  if (mode === undefined) return toolSearch;
  if (mode === 'direct') return false;
  const base = typeof toolSearch === 'object' && toolSearch !== null && !Array.isArray(toolSearch) ? (toolSearch as Record<string, unknown>) : {};
  const { enabled: _enabled, ...rest } = base;
  return { ...rest, mode };
}
