// The catalog's public types. Other packages (modes, gateway-adapter) are written against these.
import type { Logger } from 'pino';
import type { ToolSource } from './tool-id.js';

/** A JSON Schema object, as MCP and the model providers speak it. */
export type JsonSchema = Record<string, unknown>;

/**
 * Behaviour hints a tool declares about itself (the MCP `ToolAnnotations`). Hints, not guarantees: a hint from an
 * untrusted source may only ever tighten what policy allows.
 */
export interface ToolAnnotations {
  readOnlyHint?: boolean | undefined;
  destructiveHint?: boolean | undefined;
  idempotentHint?: boolean | undefined;
  openWorldHint?: boolean | undefined;
}

/** A tool as handed to `createCatalog` / `catalog.add`. Validated with zod. */
export interface ToolInput {
  name: string;
  source: ToolSource;
  owner: string;
  /** A human-readable display name (MCP `title`). */
  title?: string;
  description?: string;
  inputSchema?: JsonSchema;
  outputSchema?: JsonSchema;
  /** Defaults to true for `openclaw`/`plugin`, false for `mcp`/`client`. */
  trusted?: boolean;
  tags?: string[];
  annotations?: ToolAnnotations;
}

/** A catalogued tool: the validated input with its id and defaults filled in. */
export interface ToolDescriptor {
  /** `<source>:<owner>:<name>` */
  id: string;
  name: string;
  source: ToolSource;
  owner: string;
  title?: string;
  /** The description as given (not cut); may be untrusted text, see `trusted`. */
  description: string;
  /** The input schema as given, or `{ type: 'object', properties: {} }` when none was given. */
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  trusted: boolean;
  tags: string[];
  annotations?: ToolAnnotations;
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
  /**
   * Near-duplicates of this tool on other servers the reader sees (the same name, or a near-identical description
   * and parameters), each with what differs from this one: on the first hit of such a family only (a member further
   * down keeps its place). Never a tool the reader does not see.
   */
  alsoOn?: Array<{ id: string; differs: string }>;
}

/**
 * `describe` on a hit: the hit with the whole (sanitised) description, the full schemas, the title and the
 * annotations. The description is cut only past `MAX_DESCRIBE_LENGTH` (untrusted) or
 * `MAX_DESCRIPTION_LENGTH` (trusted) characters, and `descriptionTruncated` says when it was.
 */
export interface ToolDescription extends SearchHit {
  descriptionTruncated: boolean;
  title?: string;
  annotations?: ToolAnnotations;
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
  limit?: number | undefined;
  /**
   * Only this server's tools (`<source>:<owner>`, as a server map or `browse` names it), ranked with the same
   * scores as the whole search. A server the reader does not see has no hits.
   */
  server?: string | undefined;
}

export interface SearchQuery {
  query: string;
  limit?: number | undefined;
}

/** What an embedder is asked to embed: a search query, or tools (their name, title and description). */
export type EmbeddingKind = 'query' | 'tool';

/**
 * Maps texts to vectors, for deployments that have a text-embedding model (see `createOpenAiEmbedder`). The
 * catalog batches its calls (at most `maxBatchSize` texts each) and caches tool vectors by content hash.
 */
export interface Embedder {
  /** Names the model and its settings; part of every cache key, so vectors of two models never mix. */
  readonly id: string;
  /** Most texts per `embed` call (default 64). */
  readonly maxBatchSize?: number | undefined;
  /** One vector per text, in order, all of one length. Rejects when the model cannot answer. */
  embed(texts: string[], options: { kind: EmbeddingKind }): Promise<ArrayLike<number>[]>;
}

/**
 * Where tool vectors are kept between catalogs: keyed by `<embedder id>:<SHA-256 of the embedded text>`, so a
 * long-lived host embeds each tool once, and a host that persists the cache (a file, a database) embeds nothing
 * again after a restart. A `Map<string, Float32Array>` is one.
 */
export interface EmbeddingCache {
  get(key: string): ArrayLike<number> | undefined;
  set(key: string, vector: Float32Array): unknown;
}

/** What `updateEmbeddings` did. */
export interface EmbeddingUpdate {
  /** Tools that have a vector now. */
  vectors: number;
  /** Tools embedded by this call (sent to the embedder). */
  embedded: number;
  /** Tools whose vector came from the cache. */
  fromCache: number;
  /** Tools left without a vector because the embedder failed (they are retried on the next update). */
  failed: number;
  /** The embedder's error message when a batch failed. */
  error?: string;
}

/** Per-owner context text (an MCP server's `instructions`), indexed at low weight for all of the owner's tools. */
export interface OwnerContext {
  source: ToolSource;
  owner: string;
  /** Plain text; at most 8,000 characters are indexed. An empty string removes the context. */
  text: string;
  /**
   * The server's display name (MCP `serverInfo.title`): the map's summary when neither `description` nor a
   * sentence of `text` says what the server does, and the title says more than the owner's name. Not indexed.
   */
  title?: string | undefined;
  /** What the server says it does (MCP `serverInfo.description`): the map's summary comes first from it. Not indexed. */
  description?: string | undefined;
}

/**
 * A search with a verdict on its evidence. `weak`: no hit, or the best hit matches too little of the query (by
 * both `coverage` and `strength`) to be more than a guess; DESIGN.md gives the
 * threshold and bench/RESULTS.md how it was calibrated. A caller answers a weak search with the server map (`servers`).
 */
export interface SearchAnswer {
  hits: SearchHit[];
  evidence: 'strong' | 'weak';
  /**
   * The idf-weighted share of the query's words the best hit matches, 0..1 (0 without hits; 1 for an exact id or
   * name). When the embedder reordered the hits, the first of the leading three that is not a guess counts.
   */
  coverage: number;
  /**
   * The idf the best hit matches, in units of the rarest possible word's (2: as much as two words no other tool
   * has); long queries match a small share of their words even when the hit is right.
   */
  strength: number;
  /** A search within one server (`server`): how many of its tools the query's words match at all (the hits are the best `limit`). */
  matched?: number;
}

/** How a query term reached a tool: the word itself, or the expansion that found it. */
export type MatchPath = 'word' | 'exact-form' | 'word-pair' | 'identifier' | 'intent' | 'thesaurus' | 'typo' | 'prefix';

/**
 * Why a search ranked as it did, for people (never for a model): `explain` gives the same hits, order and scores
 * as the lexical `searchWithEvidence`, and for each hit what made its score.
 */
export interface SearchExplanation {
  query: string;
  /**
   * The query's words after analysis (stems; stop words dropped), and whether any tool the reader sees has each.
   * `implied`: the query does not write this word; how it writes a thing implies it (a file name "file", `#42`
   * "issue pull request", "how many" "count").
   */
  words: Array<{ term: string; found: boolean; implied?: true }>;
  evidence: 'strong' | 'weak';
  coverage: number;
  strength: number;
  /** The weak-evidence thresholds: weak when coverage and strength are both below theirs. */
  thresholds: { coverage: number; strength: number };
  /** Why a search is weak, in a sentence (absent when strong). */
  why?: string;
  hits: Array<{
    id: string;
    name: string;
    owner: string;
    score: number;
    /** The query is this tool's id or name: it comes first, whatever the words score. */
    exactMatch: boolean;
    /**
     * The deprecated tool this hit was placed just above: that tool's description names this one as its
     * replacement ("use read_text_file instead"), so this hit's score is the deprecated tool's, a hair higher.
     */
    replaces?: string;
    /** The lexical sum of the terms below, before the factors. */
    lexical: number;
    /** The annotation factor: 1.1 when the tool's hints agree with a look-only or destroy-only query, 0.9 when not, else 1. */
    facet: number;
    /**
     * The name and server factor: 1 + 0.1 × (the share of the tool's name words the query has)², times 1.5 when the
     * query names the tool's server (all the words of its owner's name, or that name as one word), times 0.8 when
     * the tool's name asks the opposite of the query (`force_terminate` for "run a command"); else 1.
     */
    naming: number;
    /** What diversification left of the score (1 when it did not lower it): score ≈ lexical × facet × naming × diversification. */
    diversification: number;
    /** Each matched query term, its path, the tool's fields that have it, and its share of the lexical sum. */
    matches: Array<{ term: string; path: MatchPath; fields: string[]; share: number }>;
  }>;
}

/** One server (an owner of tools) as the server map shows it. */
export interface ServerSummary {
  source: ToolSource;
  owner: string;
  /**
   * One line for a reader: the first sentence of the owner's `description`, else the first sentence of its context
   * text (an MCP server's instructions) that says what it does (audience boilerplate and placeholders skipped),
   * else its `title`, else its most distinctive tool names ("Tools such as ..."). Empty for a starting server.
   */
  summary: string;
  /** How many of its tools the reader sees. */
  toolCount: number;
  /** Tool names, as many as the byte budget leaves (fewer than `toolCount` when it ran out). */
  tools: string[];
  /** `starting`: a server still making its first connection (see `ServerMapOptions.starting`); its tools are not listed yet. */
  state?: 'starting';
}

/**
 * One page of the server map: the owners a reader sees, ranked by relevance to a query (by size without one), within
 * a byte budget that counts every field, `omitted` and `next` included. `OffsetKey` names the offset in `next`.
 */
export interface ServerMap<OffsetKey extends string = 'offset'> {
  servers: ServerSummary[];
  /** Owners after this page in the ranked map (0 on the last page). */
  omitted: number;
  /** What fetches the next page (the query again, and the offset of its first owner); absent on the last page. */
  next?: ServerMapNext<OffsetKey>;
}

/** The arguments of a server map's next page: `{ query?, <offsetKey>: number }`. */
export type ServerMapNext<OffsetKey extends string = 'offset'> = { query?: string } & { [K in OffsetKey]: number };

/** An owner the map shows as `starting`: its tools are not listed yet (a server still making its first connection). */
export interface StartingOwner {
  source: ToolSource;
  owner: string;
}

/** Options of `servers`. */
export interface ServerMapOptions<OffsetKey extends string = 'offset'> {
  /** Most UTF-8 bytes of the page's JSON, every field counted (default `DEFAULT_SERVER_MAP_BYTES`, at least 256). */
  maxBytes?: number | undefined;
  /**
   * The request the map answers: owners of its search hits lead (by the sum of their hits' reciprocal ranks), then
   * owners whose name it says as a word, then the rest by size; within each owner the tools nearest it come first.
   * Without one, owners by size (largest first) and tools by name. Never alphabetical by owner.
   */
  query?: string | undefined;
  /** Index of the page's first owner in the ranked map (default 0): `next` gives the next page's. */
  offset?: number | undefined;
  /** Most owners on the page (default and at most `SERVERS_PER_PAGE`). */
  maxServers?: number | undefined;
  /** Ids of tools whose names the page leaves out (an answer that already shows them); counts are unchanged. */
  leaveOut?: readonly string[] | undefined;
  /**
   * Owners still starting, shown as `{ ..., state: 'starting' }` after the owners the query ranks and before the
   * rest. An owner that has visible tools is shown as usual instead. The caller passes only owners the reader may see.
   */
  starting?: readonly StartingOwner[] | undefined;
  /** The name of the offset in `next` (default `'offset'`, so `servers(page.next)` fetches the next page). */
  offsetKey?: OffsetKey | undefined;
}

/** One tool of a server, as `browse` lists it. */
export interface BrowsedTool {
  id: string;
  name: string;
  /** Sanitised, at most 100 characters. */
  description: string;
}

/** Options of `browse`. */
export interface BrowseOptions {
  /** Tools skipped (default 0). */
  offset?: number | undefined;
  /** Most tools returned (default 20, at most 100). */
  limit?: number | undefined;
}

/** The value `browse` returns: one server's tools (a page of them, by name), or a value-level miss. */
export type BrowseResult =
  | {
      found: true;
      source: ToolSource;
      owner: string;
      summary: string;
      toolCount: number;
      offset: number;
      tools: BrowsedTool[];
      /** The offset of the next page, when there is one. */
      nextOffset?: number;
    }
  | {
      found: false;
      reason: 'unknown' | 'ambiguous';
      message: string;
      /** Up to 3 servers (`<source>:<owner>`) for `unknown`; every match for `ambiguous`. */
      suggestions: string[];
    };

/** Options of `likelyTools`. */
export interface LikelyToolsOptions {
  /** Most tools returned (default 3, at most the catalog's `maxSearchLimit` − 1). */
  limit?: number;
}

export interface CatalogOptions {
  logger?: Logger;
  /**
   * An embedder: `searchAsync` then fuses the lexical ranking with the tools nearest to the query's vector.
   * Without one, nothing is embedded and `searchAsync` is `search`.
   */
  embedder?: Embedder | undefined;
  /** Where tool vectors are cached (default: an in-memory map of this catalog). */
  embeddingCache?: EmbeddingCache | undefined;
  /**
   * Names no catalogued tool may take (a caller's own control tools). An entry with one is skipped with a
   * warning by `createCatalog` and reported as `reserved_name` by `add`. Default: none.
   */
  reservedNames?: readonly string[];
  /** Default 8. */
  searchDefaultLimit?: number;
  /** Default 20; at most 50. */
  maxSearchLimit?: number;
  /**
   * A general-language thesaurus for query words no admitted tool has (`wordnetThesaurus()` from
   * `@tool-search/catalog/wordnet`): such a word also searches its relatives, at low weight. Default: none.
   */
  thesaurus?: Thesaurus;
}

/**
 * General-language relatives of query words, looked up only for a query word that no admitted tool has (and for a
 * two-word verb such as "kick off"). Keys and relatives are index terms as the catalog's analyser writes them
 * (lower-case, stemmed: `reloc` for "relocate"), a two-word verb as `term particle` (`kick off`).
 */
export interface Thesaurus {
  /** Names the resource and its version (`wordnet-3.1`). */
  readonly id: string;
  /** The related index terms of `key`, closest first; undefined when it has none. */
  related(key: string): readonly string[] | undefined;
}

/** Why `catalog.add` left an entry out. */
export type RejectedToolCode = 'invalid_tool' | 'duplicate_id' | 'reserved_name';

/** One entry `catalog.add` did not take, as a value. */
export interface RejectedTool {
  /** Position in the array passed to `add`. */
  index: number;
  /** The id the entry would have had, when its fields allowed one. */
  id?: string;
  code: RejectedToolCode;
  /** Where in the input the problem is (`tools[3].owner`), for `invalid_tool`. */
  path?: string;
  message: string;
}

/** What `catalog.add` did: the tools it catalogued and the entries it left out (with why). */
export interface AddResult {
  added: ToolDescriptor[];
  rejected: RejectedTool[];
}

/**
 * Which tools a view admits. Called once per tool when the view is first used and once per tool added later,
 * never per search; it must be pure (same tool, same answer).
 */
export type ToolFilter = (tool: ToolDescriptor) => boolean;

/**
 * Read access to a catalog: searching, describing and listing. A `CatalogView` gives the same answers as a
 * catalog built from the admitted tools alone (ranking statistics included), so nothing of a tool it does not
 * admit (id, name, text, score, suggestion or count) ever comes out of it.
 */
export interface CatalogReader {
  /** Number of tools visible here. */
  readonly size: number;
  /** The effective limits (after defaults and clamping). */
  readonly limits: { searchDefaultLimit: number; maxSearchLimit: number };
  /**
   * Lexical hits, best first. With an embedder, a query whose vector this reader already knows (its own `searchAsync`
   * or `embedQueries` embedded it, and tools have vectors) is fused with the embedder's nearest tools as `searchAsync`
   * is. Vectors another reader embedded never change this reader's answers.
   */
  search(query: string, options?: SearchOptions): SearchHit[];
  /**
   * Embeds the tools not embedded yet and these queries (batched), so that `search` and `searchMany` of them fuse
   * with the embedder: how a synchronous caller gets semantic ranking. Without an embedder it does nothing; an
   * embedder failure is logged and leaves those searches lexical (it never rejects for that). A text embedded once
   * is not embedded again for any reader of the catalog; only this reader's searches fuse with it.
   */
  embedQueries(queries: readonly string[]): Promise<void>;
  /**
   * The same tools and limits, read with query vectors of its own: what it embeds fuses only its searches. A view
   * shared by several sessions gives each session one, so no session's ranking depends on what another searched.
   */
  withOwnQueryVectors(): CatalogReader;
  /**
   * `search` fused with the embedder's nearest tools (embedding tools not embedded yet first). Without an
   * embedder, or when the embedder fails (logged), it resolves to the lexical hits of `search`.
   */
  searchAsync(query: string, options?: SearchOptions): Promise<SearchHit[]>;
  /** Up to 16 queries, results in order. */
  searchMany(queries: SearchQuery[]): SearchHit[][];
  /** `search`, with a verdict on its evidence (see `SearchAnswer`). */
  searchWithEvidence(query: string, options?: SearchOptions): SearchAnswer;
  /**
   * The lexical `searchWithEvidence` of `query`, explained (see `SearchExplanation`): for people inspecting a
   * ranking, never for a model's answer. Like every read, it sees only the tools this reader sees.
   */
  explain(query: string, options?: SearchOptions): SearchExplanation;
  /** `searchMany`, with a verdict on each query's evidence. */
  searchManyWithEvidence(queries: SearchQuery[]): SearchAnswer[];
  /**
   * One page of the server map: the owners visible here, ranked for a query (by size without one), each with a
   * one-line summary and its tool names, within a byte budget (see `ServerMapOptions`). Deterministic.
   */
  servers<OffsetKey extends string = 'offset'>(options?: ServerMapOptions<OffsetKey>): ServerMap<OffsetKey>;
  /** One server's tools by name, a page at a time; `server` is an owner, or `<source>:<owner>` when several sources share it. */
  browse(server: string, options?: BrowseOptions): BrowseResult;
  /**
   * The few tools the ranking is confident a request needs, to declare up front (at most `limit`, default 3),
   * with their full descriptions: empty unless the top hit clears the margin (see DESIGN.md). Deterministic.
   */
  likelyTools(request: string, options?: LikelyToolsOptions): ToolDescription[];
  describe(idOrName: string): DescribeResult;
  get(id: string): ToolDescriptor | undefined;
  /** Ids of the visible tools with exactly this name, sorted (cheap: no suggestions are computed). */
  named(name: string): string[];
  /** Every visible tool, sorted by id. */
  list(): ToolDescriptor[];
  /** Count per source (every source present, zero when none). */
  sources(): Record<ToolSource, number>;
}

/** A policy-filtered window on a catalog (see `catalog.view`). */
export type CatalogView = CatalogReader;

/** Options of `catalog.view`: its own search limits (default: the catalog's; clamped the same way). */
export interface ViewOptions {
  searchDefaultLimit?: number;
  maxSearchLimit?: number;
}

/** A catalog: every read of `CatalogReader` over all its tools, plus adding, removing and views. */
export interface Catalog extends CatalogReader {
  /**
   * Adds tools incrementally. An invalid entry, a duplicate id or a reserved name does not stop the others: it
   * is reported in `rejected`. Throws only when `tools` is not an array.
   */
  add(tools: ToolInput[]): AddResult;
  /** Removes tools by id; unknown ids are ignored. Returns the ids removed. */
  remove(ids: string[]): string[];
  /**
   * Sets (or, with an empty text, removes) an owner's context text, e.g. an MCP server's `instructions`: indexed
   * at low weight for each of its tools, present and added later. Re-indexes that owner's tools in place.
   */
  setOwnerContext(context: OwnerContext): void;
  /**
   * Gives every catalogued tool without a vector one (from the cache, else from the embedder, batched).
   * Resolves when done; never rejects for an embedder failure (see `failed`). Without an embedder: all zero.
   */
  updateEmbeddings(): Promise<EmbeddingUpdate>;
  /**
   * A read-only view that sees only the tools `filter` admits, over this catalog's one index (nothing is
   * rebuilt). Creating it costs O(1); its first use runs `filter` over the catalog once, later changes to the
   * catalog reach it incrementally. A view holds no reference from the catalog, so dropping it frees it.
   */
  view(filter: ToolFilter, options?: ViewOptions): CatalogView;
}
