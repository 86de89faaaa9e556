// The console's API answers, one type per route: what serve-console sends (built by console-data) and what the
// page script reads (page/console-script.js imports these as JSDoc types, so tsc checks both sides against one
// shape). Types only: the page's program (page/tsconfig.json, DOM and no Node) reads this file.
import type { SearchExplanation, ToolAnnotations } from '@tool-search/catalog';

/** One configured server, as `/api/servers` lists it (`not_started`: the config could not start it as written). */
export interface ConsoleServer {
  name: string;
  state: string;
  tools: number;
  restarts: number;
  /** Why it is not ready, or not started, with what to do. */
  reason?: string | undefined;
}

/** `/api/servers`: the servers and the catalog's size by source. */
export interface ConsoleServers {
  servers: ConsoleServer[];
  catalog: { size: number; sources: Record<string, number> };
}

/** One tool of `/api/catalog` (every tool, refused ones too: the console is for people). */
export interface ConsoleCatalogTool {
  id: string;
  title?: string | undefined;
  description: string;
  /** The tool's JSON Schema, shown as text. */
  inputSchema?: unknown;
  annotations?: ToolAnnotations | undefined;
  trusted: boolean;
}

/** One tool of `/api/policy`: admitted or not, the rule that refused it, or what puts a call to it before an approval. */
export interface ConsolePolicyRow {
  id: string;
  admitted: boolean;
  by?: 'policy' | 'owner-only';
  layer?: string;
  rule?: string;
  reason?: string;
  /**
   * An admitted tool a `requireApproval` rule matches, in the policy's words: "requires approval by
   * 'hint:destructive' in global (no annotations: MCP's default destructiveHint is true)".
   */
  approval?: string;
}

/** One server of the server map a weak search answers with. */
export interface ConsoleServerMapEntry {
  owner: string;
  summary: string;
  tools: string[];
  /** A server still making its first connection: its tools are not listed yet. */
  state?: 'starting';
}

/** `/api/search`: the search explained for people, and what the model gets instead when it is weak. */
export interface ConsoleSearch {
  query: string;
  explanation: SearchExplanation;
  /** Why more did not match (tools the policy refuses, servers that are down), one sentence each. */
  also: string[];
  /** The server map of the model's answer, when the answer has one (a weak search). */
  serverMap?: ConsoleServerMapEntry[];
  /** The search failed for the model too: what it was told. */
  error?: string;
}

/** One line of a session log, as the activity view lists it (`time` in milliseconds since the epoch). */
export type ActivityLine = { time: number; sessionId: string; event: string } & Record<string, unknown>;

/** `/api/activity`: the lines, and what kept any of the session logs out of it (a missing file, lines not read). */
export interface Activity {
  lines: ActivityLine[];
  problems: string[];
}

/** One mode of `/api/bytes`: what an MCP client gets up front in it. */
export interface ConsoleSurface {
  /** The mode asked for. */
  requested: string;
  /** The mode rendered (code may fall back to tools). */
  mode: string;
  fallbackReason?: string;
  tools: number;
  toolBytes: number;
  instructionBytes: number;
}

/** Each API route and its answer: serve-console serves this table, the page script reads it. */
export interface ConsoleRoutes {
  '/api/servers': ConsoleServers;
  '/api/catalog': ConsoleCatalogTool[];
  '/api/policy': ConsolePolicyRow[];
  '/api/search': ConsoleSearch;
  '/api/activity': Activity;
  '/api/bytes': ConsoleSurface[];
}

/** An API route's refusal or failure: what was wrong, in a sentence. */
export interface ConsoleApiError {
  error: string;
}
