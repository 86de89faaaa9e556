// What a session reads from the host it was opened on: the one catalog, the routes of its tools, what went
// away, the MCP servers, the shared sandbox runner, and change events. Internal: the public contract is
// `ToolSearchHost`.
import type { CatalogView, ToolDescriptor, ViewOptions } from '@tool-search/catalog';
import type { ModelError, Surface } from '@tool-search/modes';
import type { Policy, PolicyContext, PolicyTool } from '@tool-search/policy';
import type { Runner } from '@tool-search/sandbox-runner';
import type { RunSlots } from '../shared/index.js';
import type { Logger } from 'pino';
import type { McpCallOptions, McpCallResult, McpLogEntry, McpReadResourceResult } from '../mcp-client/index.js';
import type { ArgsValidator } from './create-args-validator.js';
import type { DirectMeasure, ToolSearchModeDecision } from '../decide-tool-search-mode.js';
import type { ExecutableTool } from '../executable-tool.js';
import type { ResolvedToolSearchConfig, ToolSearchEnv } from '../resolve-tool-search-config.js';
import type { PolicyByContent } from './policy-cache.js';
import type { OpenTelemetryOptions } from '../otel/gateway-spans.js';

/** How a catalogued tool runs: in this process, or on an MCP server. */
export type HostRoute =
  | { kind: 'local'; ownerOnly: boolean; tool: ExecutableTool }
  | { kind: 'mcp'; ownerOnly: false; server: string; toolName: string }
  /** The synthesized `read_resource` tool of a server: `resources/read` of the given URI. */
  | { kind: 'mcp-resource'; ownerOnly: false; server: string };

/** A tool that was catalogued and went away: why, and what the policy needs to know whether to say so. */
export interface GoneTool {
  /** Why it went, as data modes words for the model. */
  reason: ModelError;
  tool: PolicyTool;
}

/** A change of the host's catalog, for the sessions open on it. */
export type HostEvent =
  | { type: 'tools_changed'; server: string; added: PolicyTool[]; removed: PolicyTool[] }
  | { type: 'server_down'; server: string; reason: string; tools: PolicyTool[] }
  | { type: 'server_up'; server: string; tools: PolicyTool[] };

export interface HostCore {
  /** The host's logger as given (no bindings of this package), for sessions and the packages they create. */
  readonly rootLogger: Logger;
  /** Environment for `resolveToolSearchConfig` (`TOOL_SEARCH_MODE`). */
  readonly env: ToolSearchEnv;
  /** One argument validator for every session (it compiles each tool's schema once). */
  readonly validator: ArgsValidator;
  /** True when the catalog has an embedder: a `tool_search` embeds its queries first, so its ranking is fused. */
  readonly semantic: boolean;
  /** What the host's spans record beyond their defaults (`CreateToolSearchHostOptions.openTelemetry`). */
  readonly openTelemetry: OpenTelemetryOptions;
  /** Bumped on every catalog change (sessions re-render their surface when it moves). */
  version(): number;
  /** A view of the catalog for one policy and context (cached per policy scope and limits). */
  view(policy: Policy, context: PolicyContext, limits: ViewOptions): CatalogView;
  /** A policy config's canonical copy and the compiled policy shared by its content (throws `PolicyError` when invalid). */
  policyByContent(config: unknown): PolicyByContent;
  /** The view of a policy content for one context (cached by content, scope and limits; bounded). */
  contentView(policy: PolicyByContent, context: PolicyContext, limits: ViewOptions): CatalogView;
  /** Rendered surfaces shared by the sessions of one view (keyed by everything a surface depends on). */
  surfaceMemo(view: CatalogView): Map<string, { version: number; surface: Surface }>;
  route(id: string): HostRoute | undefined;
  /** The policy's picture of a catalogued tool (owner-only, trust and annotations included). */
  policyTool(descriptor: ToolDescriptor): PolicyTool;
  /** A tool that was catalogued and is gone now (its server is down, or removed it). */
  gone(id: string): GoneTool | undefined;
  /** The tools a down MCP server had listed when it went down; undefined when it never listed any, or is up. */
  toolsOfDownServer(server: string): readonly PolicyTool[] | undefined;
  /** Where a configured MCP server is instead of ready (`starting`, `unavailable`, ...) and why, or undefined when it is ready or not configured. */
  serverDown(server: string): { state: string; reason: string } | undefined;
  /** Names of configured MCP servers that are not ready now. */
  unavailableServers(): string[];
  /** The first connection attempt of a configured MCP server while it is under way; undefined once it settled. */
  startingServer(server: string): Promise<void> | undefined;
  /** How long a control tool naming a server still starting waits for it (`startingWaitMs`). */
  readonly startingWaitMs: number;
  /** Calls an MCP tool; a server's own `timeoutMs` wins over the session's `timeoutMs`. */
  callMcp(server: string, toolName: string, args: Record<string, unknown>, options: McpCallOptions & { onServerLog?: ((entry: McpLogEntry) => void) | undefined }): Promise<McpCallResult>;
  /**
   * Tool ids pinned directly visible by the servers: those their configs list (`visible`), and the tools of trusted
   * servers whose `_meta` asks to be always loaded, as catalogued now. Each session pins them if its policy allows.
   */
  pinnedByServers(): string[];
  readResource(server: string, uri: string, options: { signal?: AbortSignal; timeoutMs?: number }): Promise<McpReadResourceResult>;
  /** The mode to render for a config (code mode probes the sandbox runtime once per host). */
  decideMode(config: ResolvedToolSearchConfig, measureDirect?: () => DirectMeasure): Promise<ToolSearchModeDecision>;
  /** A new session's code-run slots: its own, then the host's (shared by every session). */
  runSlots(): readonly RunSlots[];
  /** The sandbox runner for code-mode sessions (shared, created on first use). */
  runner(decision: ToolSearchModeDecision): Runner | undefined;
  subscribe(listener: (event: HostEvent) => void): () => void;
  /** Resolves when the first session may start (servers started, or the startup wait is over). */
  startupWait(): Promise<void>;
  /** True while the first start of some server is under way and the startup wait is not over. */
  startupPending(): boolean;
}
