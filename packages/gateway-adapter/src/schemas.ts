// zod schemas for what crosses this package's boundary: the `tools.toolSearch` setting and the MCP server
// configs. Our own config is strict (a typo fails loudly, with its path).
import { SEARCH_MODES } from '@tool-search/modes';
import { isPolicyError, parsePolicyConfig } from '@tool-search/policy';
import { z } from 'zod';

/** The object form of the `tools.toolSearch` setting. */
export const toolSearchConfigObjectSchema = z.strictObject({
  /** Off when false (direct mode). Default true when the object form is used. */
  enabled: z.boolean().optional(),
  /**
   * `code`, `tools`, `directory`; `native` (the provider's own deferred loading, driven by our search and policy);
   * `auto` (direct while the catalog is small, tool search above the `auto` thresholds).
   */
  mode: z.enum([...SEARCH_MODES, 'auto']).optional(),
  /** Clamped to 1,000–60,000. */
  codeTimeoutMs: z.number().int().positive().optional(),
  searchDefaultLimit: z.number().int().min(1).optional(),
  /** Clamped to at most 50. */
  maxSearchLimit: z.number().int().min(1).optional(),
  directory: z
    .strictObject({
      maxChars: z.number().int().min(1).optional(),
      contextWindowTokens: z.number().int().min(1).optional(),
    })
    .optional(),
  /** The model's context window in tokens: sizes the directory and the `auto` threshold (10% of it). */
  contextWindowTokens: z.number().int().min(1).optional(),
  /** When `mode: 'auto'` renders direct, and which search mode it uses above that. */
  auto: z
    .strictObject({
      /** Direct while the declared tools are at most this many. Default 30. */
      maxTools: z.number().int().min(0).optional(),
      /** Direct while their schemas are at most this many bytes. Default: 10% of `contextWindowTokens` (4 bytes a token), else 40,000. */
      maxBytes: z.number().int().min(0).optional(),
      /** The mode above the thresholds. Default `code` (which falls back to `tools` without a sandbox runtime). */
      searchMode: z.enum(SEARCH_MODES).optional(),
    })
    .optional(),
  /**
   * `native` mode: Anthropic's search tool is ours (`client`, default) or its server-side `bm25` / `regex` one.
   * `chat`: on OpenAI Chat (and OpenAI-compatible endpoints without deferral), `tools` (default) renders tools mode;
   * `load` declares our `tool_search`, whose finds become real functions of the next request, at most `maxLoaded`
   * of them (default 32; past it the oldest loaded is unloaded first).
   */
  nativeSearch: z
    .strictObject({
      anthropic: z.enum(['client', 'bm25', 'regex']).optional(),
      chat: z.enum(['tools', 'load']).optional(),
      maxLoaded: z.number().int().min(1).max(120).optional(),
    })
    .optional(),
  /** The harness has its own native tool search: render every schema (direct) and leave deferral to it. */
  native: z.boolean().optional(),
});

/** The whole `tools.toolSearch` setting: `true` (code mode), `false` (off) or the object form. */
export const toolSearchConfigSchema = z.union([z.boolean(), toolSearchConfigObjectSchema]);

/** The `tools.toolSearch` setting as a user writes it. */
export type ToolSearchConfigInput = z.input<typeof toolSearchConfigSchema>;

const serverNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'expected 1-64 letters, digits, "_", "." or "-" (it becomes the owner in tool ids)');

/** A list of tool patterns in policy syntax (`read_*`, `mcp:github:get_*`, `group:fs`), checked by `parsePolicyConfig`. */
const toolPatternsSchema = z.array(z.string().min(1)).superRefine((patterns, context) => {
  try {
    parsePolicyConfig({ deny: patterns });
  } catch (error) {
    const path = isPolicyError(error) ? error.path : undefined;
    // The policy error's path is `deny[i]`: keep only the index, the caller's path names the field.
    const index = path === undefined ? undefined : /\[(\d+)\]/.exec(path)?.[1];
    context.addIssue({
      code: 'custom',
      message: error instanceof Error ? error.message : String(error),
      ...(index === undefined ? {} : { path: [Number(index)] }),
    });
  }
});

/** Options every MCP server config may carry, whatever its transport. */
const mcpServerCommonShape = {
  name: serverNameSchema,
  /** Results and schemas of this server are trusted like local tools (no untrusted marking, output checked). Default false. */
  trusted: z.boolean().optional(),
  /** Only tools matching one of these patterns are offered (policy pattern syntax). Default: every tool. */
  include: toolPatternsSchema.optional(),
  /** Tools matching any of these patterns are never offered; exclude beats include. */
  exclude: toolPatternsSchema.optional(),
  /** Tool names of this server to pin directly visible in every mode (still subject to policy). */
  visible: z.array(z.string().min(1)).optional(),
  /** Idle timeout of one tool call (progress resets it), overriding the host's. */
  timeoutMs: z.number().int().min(1).max(3_600_000).optional(),
  /** Upper bound of one tool call however much progress it reports. Default 600,000 (10 min). */
  maxTotalTimeoutMs: z.number().int().min(1).max(86_400_000).optional(),
  /**
   * Largest answer read from a stdio server, in bytes (one JSON-RPC message). A larger one fails its call alone with
   * `result_too_large`; the server stays connected. Default 8 MiB (8,388,608). Not applied to HTTP and SSE servers.
   */
  maxResultBytes: z.number().int().min(1024).max(1024 * 1024 * 1024).optional(),
};

/** OAuth settings of an HTTP server (the SDK's authorization code flow with PKCE, or client credentials). */
export const mcpOAuthConfigSchema = z.strictObject({
  /** A pre-registered client id; without one the client registers dynamically (or uses `clientMetadataUrl`). */
  clientId: z.string().min(1).optional(),
  /** The secret of a pre-registered confidential client. */
  clientSecret: z.string().min(1).optional(),
  /** A client id metadata document URL (CIMD), used as the client id where the server supports it. */
  clientMetadataUrl: z.url().optional(),
  /** Scopes to ask for; default: what the server advertises. */
  scopes: z.array(z.string().min(1)).optional(),
  /** Where the browser is sent back with the code. Default: the connection option, else `http://localhost:33418/callback`. */
  redirectUrl: z.url().optional(),
  /** `client_credentials` for a machine client (needs `clientId` and `clientSecret`); default `authorization_code`. */
  grantType: z.enum(['authorization_code', 'client_credentials']).optional(),
  /** Name sent at dynamic registration. Default `tool-search`. */
  clientName: z.string().min(1).optional(),
});

/** One MCP server: a child process over stdio, a Streamable HTTP endpoint, or a legacy HTTP+SSE endpoint. */
export const mcpServerConfigSchema = z
  .discriminatedUnion('transport', [
    z.strictObject({
      ...mcpServerCommonShape,
      transport: z.literal('stdio'),
      command: z.string().min(1),
      args: z.array(z.string()).optional(),
      env: z.record(z.string(), z.string()).optional(),
      cwd: z.string().optional(),
    }),
    z.strictObject({
      ...mcpServerCommonShape,
      transport: z.literal('http'),
      url: z.url(),
      headers: z.record(z.string(), z.string()).optional(),
      /** OAuth for this server: `true` for the defaults, or the settings. */
      oauth: z.union([z.literal(true), mcpOAuthConfigSchema]).optional(),
    }),
    z.strictObject({
      ...mcpServerCommonShape,
      transport: z.literal('sse'),
      url: z.url(),
      headers: z.record(z.string(), z.string()).optional(),
      oauth: z.union([z.literal(true), mcpOAuthConfigSchema]).optional(),
    }),
  ])
  .superRefine((config, context) => {
    const oauth = 'oauth' in config && typeof config.oauth === 'object' ? config.oauth : undefined;
    if (oauth?.grantType === 'client_credentials' && (oauth.clientId === undefined || oauth.clientSecret === undefined)) {
      context.addIssue({ code: 'custom', path: ['oauth', 'grantType'], message: 'client_credentials needs oauth.clientId and oauth.clientSecret' });
    }
    if (config.timeoutMs !== undefined && config.maxTotalTimeoutMs !== undefined && config.timeoutMs > config.maxTotalTimeoutMs) {
      context.addIssue({ code: 'custom', path: ['timeoutMs'], message: `timeoutMs (${config.timeoutMs}) must not exceed maxTotalTimeoutMs (${config.maxTotalTimeoutMs})` });
    }
  });

/** One MCP server config (see `mcpServerConfigSchema`). */
export type McpServerConfig = z.infer<typeof mcpServerConfigSchema>;

/** The OAuth settings of an HTTP or SSE server config. */
export type McpOAuthConfig = z.infer<typeof mcpOAuthConfigSchema>;
