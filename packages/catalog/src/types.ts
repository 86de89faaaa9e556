// The catalog's public types. Other packages (modes, gateway-adapter) are written against these.
import type { Logger } from 'pino';

/** Where a tool comes from; the first segment of its id. */
export type ToolSource = 'openclaw' | 'plugin' | 'mcp' | 'client';

/** A JSON Schema object, as MCP and the model providers speak it. */
export type JsonSchema = Record<string, unknown>;

/** A tool as handed to `createCatalog` / `catalog.add`. Validated with zod. */
export interface ToolInput {
  name: string;
  source: ToolSource;
  owner: string;
  description?: string;
  inputSchema?: JsonSchema;
  outputSchema?: JsonSchema;
  /** Defaults to true for `openclaw`/`plugin`, false for `mcp`/`client`. */
  trusted?: boolean;
  tags?: string[];
}

/** A catalogued tool: the validated input with its id and defaults filled in. */
export interface ToolDescriptor {
  /** `<source>:<owner>:<name>` */
  id: string;
  name: string;
  source: ToolSource;
  owner: string;
  /** The description as given (not cut); may be untrusted text, see `trusted`. */
  description: string;
  /** The input schema as given, or `{ type: 'object', properties: {} }` when none was given. */
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  trusted: boolean;
  tags: string[];
}

/** One search result: compact, JSON-safe and safe to put into a prompt. */
export interface SearchHit {
  id: string;
  name: string;
  source: ToolSource;
  owner: string;
  /** Sanitised, whitespace-collapsed, at most 180 characters. */
  description: string;
  /** Compact TypeScript-like signature of the input schema, at most 300 characters. */
  input: string;
  score: number;
}

/** `describe` on a hit: the hit plus the full schemas. */
export interface ToolDescription extends SearchHit {
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
}

/** The value `describe` returns: found, or a value-level miss. */
export type DescribeResult =
  | { found: true; tool: ToolDescription }
  | {
      found: false;
      reason: 'unknown' | 'ambiguous';
      message: string;
      /** Up to 3 ids for `unknown` ("did you mean"); every matching id for `ambiguous`. */
      suggestions: string[];
    };

export interface SearchOptions {
  limit?: number;
}

export interface SearchQuery {
  query: string;
  limit?: number;
}

export interface CatalogOptions {
  logger?: Logger;
  /** Default 8. */
  searchDefaultLimit?: number;
  /** Default 20; at most 50. */
  maxSearchLimit?: number;
}

export interface Catalog {
  /** Number of catalogued tools. */
  readonly size: number;
  /** The effective limits (after defaults and clamping). */
  readonly limits: { searchDefaultLimit: number; maxSearchLimit: number };
  search(query: string, options?: SearchOptions): SearchHit[];
  /** Up to 16 queries, results in order. */
  searchMany(queries: SearchQuery[]): SearchHit[][];
  describe(idOrName: string): DescribeResult;
  get(id: string): ToolDescriptor | undefined;
  /** Every catalogued tool, sorted by id. */
  list(): ToolDescriptor[];
  /** Count per source (every source present, zero when none). */
  sources(): Record<ToolSource, number>;
  /** Adds tools incrementally; a duplicate id is an error. Returns the new descriptors. */
  add(tools: ToolInput[]): ToolDescriptor[];
  /** Removes tools by id; unknown ids are ignored. Returns the ids removed. */
  remove(ids: string[]): string[];
}
