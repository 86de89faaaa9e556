// The contract of one MCP connection: what `connectMcpServer` returns and the values its methods give.
import type { JsonSchema } from '@tool-search/catalog';
import type { LoggingLevel, Prompt, PromptArgument, Resource, ResourceTemplateType, Root, ToolAnnotations } from '@modelcontextprotocol/client';
import type { McpContentPart } from './mcp-content-part.js';
import type { McpServerConfig } from '../schemas.js';

/** The behaviour hints of a tool, as its server declares them (untrusted: they may only tighten policy). */
export type McpToolAnnotations = Pick<ToolAnnotations, 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint'>;

/** One tool as an MCP server lists it. */
export interface McpToolDefinition {
  name: string;
  /** Display title (`title`, else `annotations.title`). */
  title?: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: McpToolAnnotations;
  /** `execution.taskSupport`: a `required` tool is called through the task API. */
  taskSupport?: 'forbidden' | 'optional' | 'required';
  /** The tool's `_meta` asks to be always loaded (`anthropic/alwaysLoad` or `tool-search/alwaysLoad` is `true`). */
  alwaysLoad?: true;
}

/** A listed tool the connection does not offer, and why (never catalogue it). */
export interface McpWithheldTool {
  name: string;
  reason: string;
}

/** Why a call (or another request) produced no result. */
export type McpCallFailureCode = 'unavailable' | 'unauthorized' | 'timeout' | 'cancelled' | 'invalid_output' | 'result_too_large' | 'failed';

/** A `tools/call` outcome, as a value: the server's result, or why there is none. */
export type McpCallResult =
  | {
      ok: true;
      /** The result's content, kind by kind; binary data whole. */
      parts: McpContentPart[];
      /** `structuredContent`, when the tool gave one (checked against its `outputSchema` when the server is trusted). */
      structured?: Record<string, unknown>;
      isError: boolean;
      /** The result as one value for text-only hosts: structured content, else the texts joined, else the parts. */
      result: unknown;
      /** The task that produced the result (task-based tools). */
      taskId?: string;
    }
  | { ok: false; code: McpCallFailureCode; message: string };

/** A progress notification of a call (or a task status update, as `message`). */
export interface McpProgress {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

/** Options of one `callTool`. */
export interface McpCallOptions {
  /** Aborting sends `notifications/cancelled` (or `tasks/cancel` for a task) and fails the call `cancelled`. */
  signal?: AbortSignal | undefined;
  /** Fails the call when neither an answer nor progress came for this long. Default: the server's `timeoutMs`, else `requestTimeoutMs`. */
  timeoutMs?: number | undefined;
  /** Fails the call after this long however much progress it reports. Default: the server's `maxTotalTimeoutMs`, else 600,000. */
  maxTotalTimeoutMs?: number | undefined;
  onProgress?: ((progress: McpProgress) => void) | undefined;
  /** False: progress does not reset the timeout, so the call ends within `timeoutMs` (resolved as above). Default true. */
  progressExtendsTimeout?: boolean | undefined;
}

/** The state of a connection. */
export type McpServerStatus = 'connected' | 'unavailable' | 'unauthorized';

/**
 * Why a connection is not connected: it never started, its process exited (or its session ended), an HTTP server
 * stopped answering, no OAuth token could be had, or it was closed by its owner.
 */
export type McpFailureKind = 'start_failed' | 'exited' | 'unreachable' | 'unauthorized' | 'closed';

// Listed items are the SDK's types, cut to the fields a host reads (a server's `_meta`, icons and annotations stay
// behind: untrusted bytes nobody here uses).

/** A resource a server lists. */
export type McpResource = Pick<Resource, 'uri' | 'name' | 'title' | 'description' | 'mimeType' | 'size'>;

/** A resource template a server lists (`uriTemplate` per RFC 6570). */
export type McpResourceTemplate = Pick<ResourceTemplateType, 'uriTemplate' | 'name' | 'title' | 'description' | 'mimeType'>;

/** A prompt a server lists. */
export type McpPrompt = Pick<Prompt, 'name' | 'title' | 'description'> & { arguments?: Pick<PromptArgument, 'name' | 'description' | 'required'>[] };

/** A root the client exposes to servers (`file://` URIs). */
export type McpRoot = Pick<Root, 'uri' | 'name'>;

/** A list request's outcome. */
export type McpListResult<T> = { ok: true; items: T[] } | { ok: false; code: McpCallFailureCode | 'unsupported'; message: string };
/** `resources/read` as parts (`resource` parts: `text` or `blob`). */
export type McpReadResourceResult = { ok: true; parts: McpContentPart[] } | { ok: false; code: McpCallFailureCode | 'unsupported'; message: string };
/** `prompts/get` as messages of parts. */
export type McpGetPromptResult =
  | { ok: true; description?: string; messages: { role: 'user' | 'assistant'; part: McpContentPart }[] }
  | { ok: false; code: McpCallFailureCode | 'unsupported'; message: string };
/** `completion/complete`. */
export type McpCompleteResult =
  | { ok: true; values: string[]; total?: number; hasMore?: boolean }
  | { ok: false; code: McpCallFailureCode | 'unsupported'; message: string };

/** What a server can do, as the connection uses it. */
export interface McpServerFeatures {
  tools: boolean;
  resources: boolean;
  prompts: boolean;
  completions: boolean;
  logging: boolean;
  /** Task-based `tools/call` (`tasks.requests.tools.call`). */
  toolTasks: boolean;
}

/** A log notification of a server, capped at the connection's level. */
export interface McpLogEntry {
  server: string;
  level: LoggingLevel;
  logger?: string;
  /** The notification's data as text, at most 2,000 characters. */
  message: string;
}

/** A live connection to one MCP server. Never throws for an unreachable or dead server: it reports it. */
export interface McpServerConnection {
  readonly name: string;
  readonly config: McpServerConfig;
  /** `connected` while usable; `unavailable` once it failed to start, exited or closed, or (HTTP) stopped answering; `unauthorized` when no OAuth token could be had. */
  readonly status: McpServerStatus;
  /** Why the server is not connected (names the server; quotes the last stderr lines where there are any). */
  readonly failure: string | undefined;
  readonly failureKind: McpFailureKind | undefined;
  /** The server's `instructions` from `initialize`. */
  readonly instructions: string | undefined;
  /** The server's `serverInfo` from `initialize` (its `description` when it sends one). */
  readonly serverInfo: { name: string; version: string; title?: string; description?: string } | undefined;
  readonly features: McpServerFeatures;
  /** Process id of a stdio server while it runs. */
  readonly pid: number | undefined;
  /** The protocol revision the connection negotiated (`2026-07-28` with a server of that era), before connecting none. */
  readonly protocolVersion: string | undefined;
  /** The last lines the server wrote to stderr (at most 20 lines, 2 KB, secrets redacted). */
  stderrTail(): string[];
  /** The tools offered (empty while not connected). */
  tools(): McpToolDefinition[];
  /** Listed tools that are not offered, with why. */
  withheldTools(): McpWithheldTool[];
  /** Calls a tool; fails fast (naming the server) when the server is not connected. */
  callTool(name: string, args: Record<string, unknown>, options?: McpCallOptions): Promise<McpCallResult>;
  listResources(): Promise<McpListResult<McpResource>>;
  listResourceTemplates(): Promise<McpListResult<McpResourceTemplate>>;
  readResource(uri: string, options?: { signal?: AbortSignal; timeoutMs?: number }): Promise<McpReadResourceResult>;
  listPrompts(): Promise<McpListResult<McpPrompt>>;
  getPrompt(name: string, args?: Record<string, string>, options?: { signal?: AbortSignal; timeoutMs?: number }): Promise<McpGetPromptResult>;
  /** Argument completion for a prompt (`{ type: 'ref/prompt', name }`) or resource template (`{ type: 'ref/resource', uri }`). */
  complete(
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
    argument: { name: string; value: string },
    context?: Record<string, string>,
  ): Promise<McpCompleteResult>;
  /** Replaces the roots (only when the connection was created with `roots`) and tells the server. */
  setRoots(roots: McpRoot[]): Promise<void>;
  /** Closes the connection and stops the server process (and any it started); idempotent. */
  close(): Promise<void>;
}

