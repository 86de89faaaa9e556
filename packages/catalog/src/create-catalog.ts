// createCatalog: validated descriptors, a ranking index and prompt-safe hits for very large tool catalogs.
import { pino, type Logger } from 'pino';
import { z } from 'zod';
import { CatalogError } from './errors.js';
import { contentHash } from './internal/content-hash.js';
import { buildServerMap, firstSentence, outlineOwners, type OwnerOutline } from './internal/build-server-map.js';
import { editDistance } from './edit-distance.js';
import { findSimilarIds } from './internal/find-similar-ids.js';
import { explainSearch } from './internal/explain-search.js';
import { fuseRankings } from './internal/fuse-rankings.js';
import type { IndexScope } from './internal/index-scope.js';
import { DEFAULT_RANKING, SearchIndex, type RankingSettings } from './internal/search-index.js';
import { toolEmbeddingText } from './internal/tool-embedding-text.js';
import { unitVector, VectorIndex } from './internal/vector-index.js';
import { renderInputSignature } from './render-input-signature.js';
import { sanitizeText } from './sanitize-text.js';
import { catalogOptionsSchema, MAX_DESCRIPTION_LENGTH, MAX_OWNER_CONTEXT_INDEXED, ownerContextSchema, toolInputSchema, viewOptionsSchema } from './schemas.js';
import { isTrustedByDefault } from './is-trusted-by-default.js';
import { resolveSearchLimits, type ResolvedSearchLimits } from './resolve-search-limits.js';
import { TOOL_SOURCES, toolId } from './tool-id.js';
import type {
  AddResult,
  BrowseOptions,
  BrowseResult,
  Catalog,
  CatalogOptions,
  CatalogReader,
  CatalogView,
  DescribeResult,
  Embedder,
  EmbeddingCache,
  EmbeddingUpdate,
  LikelyToolsOptions,
  OwnerContext,
  RejectedTool,
  SearchAnswer,
  SearchExplanation,
  SearchHit,
  SearchOptions,
  SearchQuery,
  ServerMap,
  ServerMapOptions,
  ToolDescription,
  ToolDescriptor,
  ToolFilter,
  ToolInput,
  ToolSource,
  ViewOptions,
} from './types.js';

// The limit constants live with their clamp; they stay reachable from here, where the package root takes them.
export { DEFAULT_MAX_SEARCH_LIMIT, DEFAULT_SEARCH_LIMIT, SEARCH_LIMIT_CEILING } from './resolve-search-limits.js';
/** Most queries one `searchMany` call takes. */
export const MAX_QUERIES_PER_CALL = 16;
/** Longest hit description, in characters. */
export const MAX_HIT_DESCRIPTION_LENGTH = 180;
/** Longest description `describe` returns for an untrusted tool, in characters (trusted: `MAX_DESCRIPTION_LENGTH`). */
export const MAX_DESCRIBE_LENGTH = 8_000;

const EMPTY_INPUT_SCHEMA = { type: 'object', properties: {} } as const;
/** Changes a view can catch up on one by one; a view further behind re-reads the catalog once. */
const MAX_JOURNAL_ENTRIES = 256;
/** Scores are rounded so hits are stable and JSON-friendly (and ties broken by id). */
const SCORE_DECIMALS = 3;
/** Default byte budget of the server map's JSON. */
export const DEFAULT_SERVER_MAP_BYTES = 5_120;
/** Smallest byte budget `servers` accepts. */
const MIN_SERVER_MAP_BYTES = 256;
/** Default and largest page of `browse`. */
const DEFAULT_BROWSE_LIMIT = 20;
const MAX_BROWSE_LIMIT = 100;
/** Longest description `browse` lists per tool, in characters. */
const MAX_BROWSE_DESCRIPTION_LENGTH = 100;
/** Default most tools `likelyTools` returns. */
export const DEFAULT_LIKELY_TOOLS = 3;
/** Texts per `embed` call when the embedder does not say. */
const DEFAULT_EMBED_BATCH = 64;
/** Query vectors remembered per catalog (the same request is often searched again). */
const QUERY_VECTOR_CACHE_SIZE = 256;
/** With an embedder, how many leading hits a search's lexical evidence is read from. */
const FUSED_EVIDENCE_DEPTH = 3;

/** Query text -> its vector, oldest first, at most `QUERY_VECTOR_CACHE_SIZE`. */
type QueryVectors = Map<string, Float32Array>;

function rememberQueryVector(cache: QueryVectors, text: string, vector: Float32Array): void {
  cache.delete(text);
  if (cache.size >= QUERY_VECTOR_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(text, vector);
}
/** Characters of a query sent to the embedder. */
const MAX_EMBEDDED_QUERY = 2_000;
/**
 * After the embedder fails, `searchAsync` leaves it alone this long (lexical hits at once, no call that may hang
 * until its timeout); an explicit `updateEmbeddings()` still tries, and a success ends the pause.
 */
const EMBEDDER_PAUSE_MS = 30_000;

/** Creates a searchable catalog from tool entries; throws `CatalogError` on an invalid entry or a duplicate id. */
export function createCatalog(tools: ToolInput[], options: CatalogOptions = {}): Catalog {
  return createRankedCatalog(tools, options, DEFAULT_RANKING);
}

/**
 * Internal entry point, not exported from the package root: `createCatalog` with other ranking settings than
 * `DEFAULT_RANKING`. The benchmark scripts import it from this file to measure a setting before it ships.
 */
export function createRankedCatalog(tools: ToolInput[], options: CatalogOptions, settings: RankingSettings): Catalog {
  const parsedOptions = catalogOptionsSchema.safeParse(options);
  if (!parsedOptions.success) {
    const issue = parsedOptions.error.issues[0];
    const path = z.core.toDotPath(issue?.path ?? []);
    throw new CatalogError('invalid_options', `Invalid catalog option \`${path}\`: ${issue?.message ?? 'invalid'}.`, { path });
  }
  const limits = resolveSearchLimits(parsedOptions.data);
  const logger: Logger = (parsedOptions.data.logger ?? pino({ level: 'silent' })).child({ pkg: 'catalog' });

  const descriptors = new Map<string, ToolDescriptor>();
  const hitCache = new Map<string, Omit<SearchHit, 'score'>>();
  /** name -> ids, for describe by name and exact-name ranking. */
  const idsByName = new Map<string, Set<string>>();
  /** `<source>:<owner>` -> context text (an MCP server's instructions), indexed with each of its tools. */
  const ownerContexts = new Map<string, string>();
  /** `<source>:<owner>` -> the server map's summary line, from the context as given (its line breaks included). */
  const ownerSummaries = new Map<string, string>();
  const index = new SearchIndex(settings, (tool) => ownerContexts.get(`${tool.source}:${tool.owner}`) ?? '', parsedOptions.data.thesaurus);
  const embedder: Embedder | undefined = parsedOptions.data.embedder;
  const embeddingCache: EmbeddingCache = parsedOptions.data.embeddingCache ?? new Map<string, Float32Array>();
  /** Tool vectors by index slot (only with an embedder). */
  const vectors = new VectorIndex();
  /** Ids of catalogued tools that have no vector yet. */
  const unembedded = new Set<string>();
  /**
   * Query vectors embedded so far, so one text is embedded once for the whole catalog. A reader fuses a synchronous
   * search only with the vectors it embedded itself (its own `known`), never with another reader's.
   */
  const queryVectors = new Map<string, Float32Array>();
  /** Embedding updates run one after another; each takes the tools unembedded when it starts. */
  let embeddingQueue: Promise<unknown> = Promise.resolve();
  /** Until when `searchAsync` does not call the embedder (set by a failure). */
  let embedderPausedUntil = 0;
  const embedderPaused = () => Date.now() < embedderPausedUntil;
  const reserved = new Set(parsedOptions.data.reservedNames ?? []);
  /** Bumped on every change; views compare it with the version they last caught up to. */
  let version = 0;
  /** The latest changes, oldest first, so views catch up without re-reading the catalog. */
  const journal: Array<{ version: number; added: ToolDescriptor[]; removed: Array<{ id: string; slot: number }> }> = [];
  const record = (added: ToolDescriptor[], removed: Array<{ id: string; slot: number }>) => {
    version += 1;
    journal.push({ version, added, removed });
    if (journal.length > MAX_JOURNAL_ENTRIES) journal.shift();
  };

  /** Validates entries one by one: what passes is returned, what does not is reported (never thrown). */
  function validate(entries: unknown): { accepted: ToolDescriptor[]; rejected: RejectedTool[] } {
    if (!Array.isArray(entries)) {
      throw new CatalogError('invalid_tool', `Expected an array of tools, received ${describeType(entries)}.`);
    }
    const accepted: ToolDescriptor[] = [];
    const rejected: RejectedTool[] = [];
    const batchIds = new Set<string>();
    entries.forEach((entry, position) => {
      const parsed = toolInputSchema.safeParse(entry);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = z.core.toDotPath(issue?.path ?? []) || '(entry)';
        const path = z.core.toDotPath(['tools', position, ...(issue?.path ?? [])]);
        const label = entryLabel(entry, position);
        rejected.push({ index: position, code: 'invalid_tool', path, message: `Invalid tool ${label}: field \`${field}\`: ${issue?.message ?? 'invalid'}.` });
        return;
      }
      const input = parsed.data;
      const id = toolId(input.source, input.owner, input.name);
      if (reserved.has(input.name)) {
        rejected.push({ index: position, id, code: 'reserved_name', message: `Tool ${id} at tools[${position}] uses the reserved name "${input.name}".` });
        return;
      }
      if (descriptors.has(id) || batchIds.has(id)) {
        rejected.push({ index: position, id, code: 'duplicate_id', message: `Duplicate tool id "${id}" at tools[${position}]: ids must be unique.` });
        return;
      }
      batchIds.add(id);
      accepted.push({
        id,
        name: input.name,
        source: input.source,
        owner: input.owner,
        ...(input.title === undefined ? {} : { title: input.title }),
        description: input.description ?? '',
        inputSchema: input.inputSchema ?? { ...EMPTY_INPUT_SCHEMA, properties: {} },
        ...(input.outputSchema ? { outputSchema: input.outputSchema } : {}),
        trusted: input.trusted ?? isTrustedByDefault(input.source),
        tags: input.tags ?? [],
        ...(input.annotations === undefined ? {} : { annotations: input.annotations }),
      });
    });
    return { accepted, rejected };
  }

  function insert(batch: ToolDescriptor[]): void {
    for (const tool of batch) {
      descriptors.set(tool.id, tool);
      const ids = idsByName.get(tool.name) ?? new Set<string>();
      ids.add(tool.id);
      idsByName.set(tool.name, ids);
    }
    index.add(batch);
    if (embedder) for (const tool of batch) unembedded.add(tool.id);
  }

  /** Takes tools out of the index and puts them back (their owner's context changed), keeping their vectors. */
  function reindex(tools: ToolDescriptor[]): Array<{ id: string; slot: number }> {
    const removed = tools.map((tool) => ({ id: tool.id, slot: index.slotFor(tool.id) as number }));
    const kept = removed.map(({ slot }) => vectors.get(slot));
    for (const { slot } of removed) vectors.clear(slot);
    index.remove(tools.map((tool) => tool.id));
    index.add(tools);
    tools.forEach((tool, i) => {
      const vector = kept[i];
      if (vector !== undefined) vectors.set(index.slotFor(tool.id) as number, vector);
    });
    return removed;
  }

  function setVector(tool: ToolDescriptor, vector: Float32Array): void {
    const slot = index.slotFor(tool.id);
    if (slot === undefined || descriptors.get(tool.id) !== tool) return;
    vectors.set(slot, vector);
    unembedded.delete(tool.id);
  }

  /** Checks what an embedder returned: one finite vector per text, all of one length. */
  function checkedVectors(output: unknown, count: number): Float32Array[] {
    if (!Array.isArray(output) || output.length !== count) {
      throw new Error(`the embedder returned ${Array.isArray(output) ? `${output.length} vectors` : describeType(output)} for ${count} texts`);
    }
    let dimensions = vectors.dimensions;
    return output.map((vector: unknown, i) => {
      const length = (vector as ArrayLike<number> | null)?.length;
      if (typeof length !== 'number' || length === 0) throw new Error(`vector ${i} is not an array of numbers`);
      if (dimensions === undefined) dimensions = length;
      if (length !== dimensions) throw new Error(`vector ${i} has ${length} dimensions, expected ${dimensions}`);
      const unit = unitVector(vector as ArrayLike<number>);
      if (unit.some((value) => !Number.isFinite(value))) throw new Error(`vector ${i} has a value that is not a finite number`);
      return unit;
    });
  }

  /** A cached vector as a unit vector, or undefined when it does not fit (another length, not finite numbers). */
  function cachedVector(cached: ArrayLike<number> | undefined): Float32Array | undefined {
    if (cached === undefined) return undefined;
    try {
      return checkedVectors([cached], 1)[0];
    } catch {
      return undefined;
    }
  }

  async function runEmbeddingUpdate(active: Embedder): Promise<EmbeddingUpdate> {
    const update: EmbeddingUpdate = { vectors: 0, embedded: 0, fromCache: 0, failed: 0 };
    const work: Array<{ tool: ToolDescriptor; text: string; key: string }> = [];
    for (const id of [...unembedded].sort()) {
      const tool = descriptors.get(id);
      if (tool === undefined) {
        unembedded.delete(id);
        continue;
      }
      const text = toolEmbeddingText(tool);
      const key = `${active.id}:${await contentHash(text)}`;
      const cached = cachedVector(embeddingCache.get(key));
      if (cached !== undefined) {
        setVector(tool, cached);
        update.fromCache += 1;
      } else {
        work.push({ tool, text, key });
      }
    }
    const batchSize = Math.max(1, Math.floor(active.maxBatchSize ?? DEFAULT_EMBED_BATCH));
    for (let start = 0; start < work.length; start += batchSize) {
      const batch = work.slice(start, start + batchSize);
      try {
        const output = checkedVectors(await active.embed(batch.map((entry) => entry.text), { kind: 'tool' }), batch.length);
        batch.forEach((entry, i) => {
          const vector = output[i] as Float32Array;
          embeddingCache.set(entry.key, vector);
          setVector(entry.tool, vector);
        });
        update.embedded += batch.length;
        embedderPausedUntil = 0;
      } catch (error) {
        update.failed += batch.length;
        update.error = errorMessage(error);
        embedderPausedUntil = Date.now() + EMBEDDER_PAUSE_MS;
        logger.warn({ tools: batch.length, err: update.error }, 'embedding tools failed');
      }
    }
    update.vectors = vectors.size;
    logger.debug({ ...update }, 'embeddings updated');
    return update;
  }

  function updateEmbeddings(): Promise<EmbeddingUpdate> {
    const active = embedder;
    if (active === undefined) return Promise.resolve({ vectors: 0, embedded: 0, fromCache: 0, failed: 0 });
    const next = embeddingQueue.then(() => runEmbeddingUpdate(active));
    embeddingQueue = next.catch(() => undefined);
    return next;
  }

  const queryText = (query: string) => query.trim().slice(0, MAX_EMBEDDED_QUERY);

  async function queryVector(active: Embedder, query: string, known: QueryVectors): Promise<Float32Array> {
    const text = queryText(query);
    const cached = queryVectors.get(text);
    if (cached !== undefined) {
      rememberQueryVector(known, text, cached);
      return cached;
    }
    let vector: Float32Array;
    try {
      [vector] = checkedVectors(await active.embed([text], { kind: 'query' }), 1) as [Float32Array];
    } catch (error) {
      embedderPausedUntil = Date.now() + EMBEDDER_PAUSE_MS;
      throw error;
    }
    rememberQueryVector(queryVectors, text, vector);
    rememberQueryVector(known, text, vector);
    return vector;
  }

  /** Embeds the tools not embedded yet and these queries (batched); a failure is logged and leaves search lexical. */
  async function embedQueries(queries: readonly string[], known: QueryVectors): Promise<void> {
    if (!Array.isArray(queries) || queries.some((query) => typeof query !== 'string')) {
      throw new CatalogError('invalid_query', `Invalid embedQueries input: expected an array of strings, received ${describeType(queries)}.`);
    }
    const active = embedder;
    if (active === undefined || embedderPaused()) return;
    if (unembedded.size > 0) await updateEmbeddings();
    const wanted = [...new Set(queries.map(queryText))].filter((text) => text !== '');
    const texts = wanted.filter((text) => !queryVectors.has(text));
    const batchSize = Math.max(1, Math.floor(active.maxBatchSize ?? DEFAULT_EMBED_BATCH));
    for (let start = 0; start < texts.length && !embedderPaused(); start += batchSize) {
      const batch = texts.slice(start, start + batchSize);
      try {
        const output = checkedVectors(await active.embed(batch, { kind: 'query' }), batch.length);
        batch.forEach((text, i) => rememberQueryVector(queryVectors, text, output[i] as Float32Array));
      } catch (error) {
        embedderPausedUntil = Date.now() + EMBEDDER_PAUSE_MS;
        logger.warn({ queries: batch.length, err: errorMessage(error) }, 'embedding the query failed; lexical hits only');
      }
    }
    for (const text of wanted) {
      const vector = queryVectors.get(text);
      if (vector !== undefined) rememberQueryVector(known, text, vector);
    }
  }

  function hitFor(id: string, score: number): SearchHit {
    let base = hitCache.get(id);
    if (!base) {
      const tool = descriptors.get(id) as ToolDescriptor;
      base = {
        id: tool.id,
        name: tool.name,
        source: tool.source,
        owner: tool.owner,
        // Trusted or not, every description goes through the same sanitiser.
        description: sanitizeText(tool.description, { maxLength: MAX_HIT_DESCRIPTION_LENGTH }),
        input: renderInputSignature(tool.inputSchema),
      };
      hitCache.set(id, base);
    }
    return { ...base, score };
  }

  function describeTool(tool: ToolDescriptor): ToolDescription {
    const maxLength = tool.trusted ? MAX_DESCRIPTION_LENGTH : MAX_DESCRIBE_LENGTH;
    const description = sanitizeText(tool.description, { maxLength });
    return {
      ...hitFor(tool.id, 1),
      description,
      descriptionTruncated: description.length < sanitizeText(tool.description, { maxLength: Number.MAX_SAFE_INTEGER }).length,
      ...(tool.title === undefined ? {} : { title: sanitizeText(tool.title, { maxLength: 200 }) }),
      ...(tool.annotations === undefined ? {} : { annotations: { ...tool.annotations } }),
      inputSchema: tool.inputSchema,
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    };
  }

  function resolveLimit(limit: unknown, readerLimits: ResolvedSearchLimits): number {
    if (limit === undefined) return readerLimits.searchDefaultLimit;
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
      throw new CatalogError('invalid_limit', `Invalid search limit ${String(limit)}: expected an integer ≥ 1 (values above ${readerLimits.maxSearchLimit} are clamped).`);
    }
    return Math.min(limit, readerLimits.maxSearchLimit);
  }

  /** What a reader sees: the whole catalog, or the tools a view admits. */
  interface Scope {
    /** Undefined: everything catalogued is visible. */
    index: IndexScope | undefined;
    size(): number;
    tools(): Iterable<ToolDescriptor>;
    /** Changes whenever what the scope sees may have changed (for cached lists). */
    stamp(): number;
    /** Brings the scope up to date with the catalog; called first by every read. */
    sync(): void;
  }

  /** `<source>:<owner>` of a catalogued tool. */
  const serverKeyOf = (id: string) => {
    const tool = descriptors.get(id);
    return tool === undefined ? undefined : `${tool.source}:${tool.owner}`;
  };

  function createReader(scope: Scope, limits: ResolvedSearchLimits, known: QueryVectors = new Map()): CatalogReader {
    const visible = (id: string) => descriptors.has(id) && (scope.index === undefined || scope.index.has(id));
    const namedIds = (name: string): string[] => [...(idsByName.get(name) ?? [])].filter(visible).sort();
    let listed: { stamp: number; tools: ToolDescriptor[]; sources: Record<ToolSource, number> } | undefined;
    const listing = () => {
      const stamp = scope.stamp();
      if (listed?.stamp === stamp) return listed;
      const tools = [...scope.tools()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      const sources = Object.fromEntries(TOOL_SOURCES.map((source) => [source, 0])) as Record<ToolSource, number>;
      for (const tool of tools) sources[tool.source] += 1;
      listed = { stamp, tools, sources };
      return listed;
    };

    function exactMatches(query: string): string[] {
      const trimmed = query.trim();
      if (trimmed === '') return [];
      if (visible(trimmed)) return [trimmed];
      return namedIds(trimmed);
    }

    /** The vector of `query` when this reader embedded it before (`searchAsync`, `embedQueries`) and tools have vectors. */
    function knownQueryVector(query: string): Float32Array | undefined {
      if (embedder === undefined || vectors.size === 0) return undefined;
      return known.get(queryText(query));
    }

    function checkQuery(query: unknown): asserts query is string {
      if (typeof query !== 'string') {
        throw new CatalogError('invalid_query', `Invalid search query: expected a string, received ${describeType(query)}.`);
      }
    }

    /**
     * Lexical, or fused with the embedder's nearest tools when the query's vector is given or known (embedded
     * before); `'lexical'` never fuses (the likely-tools margin is calibrated on lexical scores).
     */
    function search(query: string, searchOptions: SearchOptions = {}, given?: Float32Array | 'lexical'): SearchHit[] {
      checkQuery(query);
      const vector = given === 'lexical' ? undefined : (given ?? knownQueryVector(query));
      const limit = resolveLimit(searchOptions?.limit, limits);
      const server = searchOptions?.server;
      if (server !== undefined && typeof server !== 'string') {
        throw new CatalogError('invalid_query', `Invalid search server: expected "<source>:<owner>", received ${describeType(server)}.`);
      }
      // Within one server: the same scores, every tool ranked, then only that server's kept.
      const inServer = server === undefined ? undefined : (id: string) => serverKeyOf(id) === server;
      const exact = inServer === undefined ? exactMatches(query) : exactMatches(query).filter(inServer);
      const depth = inServer !== undefined ? Math.max(scope.size(), 1) : vector === undefined ? limit + exact.length : Math.max(settings.fusionDepth, limit + exact.length);
      let ranked = index.rank(query, depth, scope.index);
      if (vector !== undefined) {
        const nearest = vectors.nearest(vector, Math.max(settings.fusionDepth, depth), (slot) => index.idAt(slot) as string, scope.index?.admittedSlots());
        const semantic = nearest.map(({ slot, similarity }) => ({ id: index.idAt(slot) as string, score: similarity }));
        ranked = fuseRankings(ranked, semantic, settings.fusion);
      }
      if (inServer !== undefined) ranked = ranked.filter((entry) => inServer(entry.id));
      ranked = ranked.slice(0, limit + exact.length);
      const rounded = ranked.map((entry) => ({ id: entry.id, score: roundScore(entry.score) }));
      rounded.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      if (exact.length > 0) {
        // An exact id or name always comes first, scored just above the best other hit.
        const exactSet = new Set(exact);
        const rest = rounded.filter((entry) => !exactSet.has(entry.id));
        const top = roundScore((rest[0]?.score ?? 0) + 1);
        const firsts = exact.map((id) => ({ id, score: top }));
        return [...firsts, ...rest].slice(0, limit).map((entry) => hitFor(entry.id, entry.score));
      }
      return rounded.slice(0, limit).map((entry) => hitFor(entry.id, entry.score));
    }

    /**
     * `search` with the lexical evidence of its answer and the verdict on it (see `SearchAnswer`): the best hit's,
     * or, when the embedder reordered the hits, the best of the leading ones (a semantic hit placed first does not
     * make the lexical match behind it a guess).
     */
    function searchWithEvidence(query: string, searchOptions: SearchOptions = {}, given?: 'lexical'): SearchAnswer {
      const hits = search(query, searchOptions, given);
      const top = hits[0];
      if (top === undefined) return { hits, evidence: 'weak', coverage: 0, strength: 0 };
      if (exactMatches(query).includes(top.id)) return { hits, evidence: 'strong', coverage: 1, strength: 1 };
      const judged = given === 'lexical' || knownQueryVector(query) === undefined ? [top.id] : hits.slice(0, FUSED_EVIDENCE_DEPTH).map((hit) => hit.id);
      const isWeak = (entry: { share: number; strength: number }) => entry.share < settings.weakCoverage && entry.strength < settings.weakStrength;
      const measured = index.coverage(query, judged, scope.index);
      const { share, strength } = measured.find((entry) => !isWeak(entry)) ?? measured[0] ?? { share: 0, strength: 0 };
      const weak = isWeak({ share, strength });
      return { hits, evidence: weak ? 'weak' : 'strong', coverage: roundScore(share), strength: roundScore(strength) };
    }

    /** Validates a `searchMany` input as a whole (so a bad entry fails the call before any query runs). */
    function checkMany(queries: SearchQuery[], method: string): void {
      if (!Array.isArray(queries)) {
        throw new CatalogError('invalid_query', `Invalid ${method} input: expected an array of { query, limit? }, received ${describeType(queries)}.`);
      }
      if (queries.length > MAX_QUERIES_PER_CALL) {
        throw new CatalogError('too_many_queries', `${method} received ${queries.length} queries; at most ${MAX_QUERIES_PER_CALL} are allowed per call.`);
      }
      queries.forEach((entry, position) => {
        if (typeof entry !== 'object' || entry === null || typeof entry.query !== 'string') {
          throw new CatalogError('invalid_query', `Invalid query at queries[${position}]: expected { query: string, limit?: number }.`, { index: position, path: `queries[${position}].query` });
        }
        resolveLimit(entry.limit, limits);
      });
    }

    let outlined: { stamp: number; owners: OwnerOutline[] } | undefined;
    /** The reader's owners with their summaries, cached until its tools change (an owner context change is one). */
    const outline = () => {
      const stamp = scope.stamp();
      if (outlined?.stamp !== stamp) {
        outlined = { stamp, owners: outlineOwners({ tools: listing().tools, summaryOf: (source, owner) => ownerSummaries.get(`${source}:${owner}`) ?? '' }) };
      }
      return outlined.owners;
    };

    function servers(mapOptions: ServerMapOptions = {}): ServerMap {
      const maxBytes = mapOptions?.maxBytes ?? DEFAULT_SERVER_MAP_BYTES;
      if (typeof maxBytes !== 'number' || !Number.isInteger(maxBytes) || maxBytes < MIN_SERVER_MAP_BYTES) {
        throw new CatalogError('invalid_limit', `Invalid server map maxBytes ${String(maxBytes)}: expected an integer ≥ ${MIN_SERVER_MAP_BYTES}.`);
      }
      const query = mapOptions?.query;
      if (query !== undefined) checkQuery(query);
      const preferred = query === undefined || query.trim() === '' ? [] : index.rank(query, Math.max(limits.maxSearchLimit, 50), scope.index).map((entry) => entry.id);
      return buildServerMap(outline(), maxBytes, preferred);
    }


    function browse(server: string, browseOptions: BrowseOptions = {}): BrowseResult {
      const offset = browseOptions?.offset ?? 0;
      const limit = browseOptions?.limit ?? DEFAULT_BROWSE_LIMIT;
      if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) {
        throw new CatalogError('invalid_limit', `Invalid browse offset ${String(offset)}: expected an integer ≥ 0.`);
      }
      if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
        throw new CatalogError('invalid_limit', `Invalid browse limit ${String(limit)}: expected an integer ≥ 1 (values above ${MAX_BROWSE_LIMIT} are clamped).`);
      }
      const key = typeof server === 'string' ? server.trim() : '';
      const owners = outline();
      const keys = owners.map((owner) => `${owner.source}:${owner.owner}`);
      const matches = keys.filter((entry) => entry === key || entry.slice(entry.indexOf(':') + 1) === key);
      if (matches.length !== 1) {
        const shown = sanitizeText(key, { maxLength: 140 });
        if (matches.length > 1) return { found: false, reason: 'ambiguous', message: `"${shown}" names ${matches.length} servers; browse one as <source>:<owner>.`, suggestions: matches };
        const suggestions = keys
          .map((entry) => ({ entry, distance: Math.min(editDistance(entry, key, 8), editDistance(entry.slice(entry.indexOf(':') + 1), key, 8)) }))
          .filter((candidate) => candidate.distance <= Math.max(2, Math.floor(key.length / 3)))
          .sort((a, b) => a.distance - b.distance || (a.entry < b.entry ? -1 : 1))
          .slice(0, 3)
          .map((candidate) => candidate.entry);
        return { found: false, reason: 'unknown', message: `No server "${shown}" here${suggestions.length > 0 ? `; did you mean ${suggestions.join(', ')}?` : '.'}`, suggestions };
      }
      const owner = owners[keys.indexOf(matches[0] as string)] as OwnerOutline;
      const tools = owner.tools;
      const page = tools.slice(offset, offset + Math.min(limit, MAX_BROWSE_LIMIT));
      const next = offset + page.length;
      return {
        found: true,
        source: owner.source,
        owner: owner.owner,
        summary: owner.summary,
        toolCount: tools.length,
        offset,
        tools: page.map((tool) => ({ id: tool.id, name: tool.name, description: sanitizeText(tool.description, { maxLength: MAX_BROWSE_DESCRIPTION_LENGTH }) })),
        ...(next < tools.length ? { nextOffset: next } : {}),
      };
    }

    return {
      get size() {
        scope.sync();
        return scope.size();
      },
      limits,
      searchWithEvidence(query: string, searchOptions?: SearchOptions): SearchAnswer {
        scope.sync();
        return searchWithEvidence(query, searchOptions);
      },
      explain(query: string, searchOptions?: SearchOptions): SearchExplanation {
        scope.sync();
        const answer = searchWithEvidence(query, searchOptions, 'lexical');
        const tools = answer.hits.map((hit) => descriptors.get(hit.id) as ToolDescriptor);
        return explainSearch({ query, answer, exact: exactMatches(query), index: index.explain(query, tools, scope.index), thresholds: { coverage: settings.weakCoverage, strength: settings.weakStrength } });
      },
      searchManyWithEvidence(queries: SearchQuery[]): SearchAnswer[] {
        scope.sync();
        checkMany(queries, 'searchManyWithEvidence');
        return queries.map((entry) => searchWithEvidence(entry.query, entry.limit === undefined ? {} : { limit: entry.limit }));
      },
      servers(mapOptions?: ServerMapOptions): ServerMap {
        scope.sync();
        return servers(mapOptions);
      },
      browse(server: string, browseOptions?: BrowseOptions): BrowseResult {
        scope.sync();
        return browse(server, browseOptions);
      },
      search(query: string, searchOptions?: SearchOptions): SearchHit[] {
        scope.sync();
        return search(query, searchOptions);
      },
      async searchAsync(query: string, searchOptions?: SearchOptions): Promise<SearchHit[]> {
        checkQuery(query);
        resolveLimit(searchOptions?.limit, limits);
        const active = embedder;
        let vector: Float32Array | undefined;
        if (active !== undefined && query.trim() !== '' && !embedderPaused()) {
          if (unembedded.size > 0) await updateEmbeddings();
          try {
            if (!embedderPaused()) vector = await queryVector(active, query, known);
          } catch (error) {
            logger.warn({ err: errorMessage(error) }, 'embedding the query failed; lexical hits only');
          }
        }
        // After the awaits: the catalog may have changed meanwhile, so the scope catches up here.
        scope.sync();
        return search(query, searchOptions, vectors.size > 0 ? vector : undefined);
      },
      embedQueries: (queries: readonly string[]) => embedQueries(queries, known),
      withOwnQueryVectors: () => createReader(scope, limits),
      likelyTools(request: string, likelyOptions: LikelyToolsOptions = {}): ToolDescription[] {
        scope.sync();
        checkQuery(request);
        const limit = likelyOptions?.limit ?? DEFAULT_LIKELY_TOOLS;
        if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
          throw new CatalogError('invalid_limit', `Invalid likelyTools limit ${String(limit)}: expected an integer ≥ 1.`);
        }
        const capped = Math.min(limit, limits.maxSearchLimit - 1);
        if (capped < 1) return [];
        const hits = search(request, { limit: capped + 1 }, 'lexical');
        const picked = pickLikely(hits.map((hit) => hit.score), capped, settings.likelyRatio, settings.likelyMargin);
        const tools = hits.slice(0, picked).map((hit) => describeTool(descriptors.get(hit.id) as ToolDescriptor));
        if (tools.length > 0) logger.debug({ toolIds: tools.map((tool) => tool.id) }, 'likely tools picked');
        return tools;
      },
      searchMany(queries: SearchQuery[]): SearchHit[][] {
        scope.sync();
        checkMany(queries, 'searchMany');
        return queries.map((entry) => search(entry.query, entry.limit === undefined ? {} : { limit: entry.limit }));
      },
      describe(idOrName: string): DescribeResult {
        scope.sync();
        const key = typeof idOrName === 'string' ? idOrName.trim() : '';
        if (visible(key)) return { found: true, tool: describeTool(descriptors.get(key) as ToolDescriptor) };
        const named = namedIds(key);
        if (named.length === 1) return { found: true, tool: describeTool(descriptors.get(named[0] as string) as ToolDescriptor) };
        if (named.length > 1) {
          return {
            found: false,
            reason: 'ambiguous',
            message: `"${sanitizeText(key, { maxLength: 140 })}" names ${named.length} tools; describe one by its exact id.`,
            suggestions: named,
          };
        }
        const suggestions = findSimilarIds(key, scope.tools(), 3);
        for (const hit of key === '' ? [] : search(key, { limit: 3 })) {
          if (suggestions.length >= 3) break;
          if (!suggestions.includes(hit.id)) suggestions.push(hit.id);
        }
        return {
          found: false,
          reason: 'unknown',
          message: `No tool "${sanitizeText(key, { maxLength: 140 })}" in the catalog${suggestions.length > 0 ? `; did you mean ${suggestions.join(', ')}?` : '.'}`,
          suggestions,
        };
      },
      named(name: string): string[] {
        scope.sync();
        return typeof name === 'string' ? namedIds(name) : [];
      },
      get(id: string): ToolDescriptor | undefined {
        scope.sync();
        return typeof id === 'string' && visible(id) ? descriptors.get(id) : undefined;
      },
      list(): ToolDescriptor[] {
        scope.sync();
        return [...listing().tools];
      },
      sources(): Record<ToolSource, number> {
        scope.sync();
        return { ...listing().sources };
      },
    };
  }

  /** Tools of one owner, by id. */
  const toolsOf = (source: string, owner: string) => [...descriptors.values()].filter((tool) => tool.source === source && tool.owner === owner).sort((a, b) => (a.id < b.id ? -1 : 1));

  const whole = createReader({ index: undefined, size: () => descriptors.size, tools: () => descriptors.values(), stamp: () => version, sync: () => undefined }, limits);

  /** A view: the admitted tools as an index scope, caught up with the catalog's changes when it is used. */
  function createView(filter: ToolFilter, viewOptions: ViewOptions = {}): CatalogView {
    if (typeof filter !== 'function') {
      throw new CatalogError('invalid_options', `Invalid view filter: expected a function (tool) => boolean, received ${describeType(filter)}.`);
    }
    const parsedView = viewOptionsSchema.safeParse(viewOptions);
    if (!parsedView.success) {
      const issue = parsedView.error.issues[0];
      const path = z.core.toDotPath(issue?.path ?? []);
      throw new CatalogError('invalid_options', `Invalid view option \`${path}\`: ${issue?.message ?? 'invalid'}.`, { path });
    }
    // A view's limits default to the catalog's and are clamped like them (never above the ceiling).
    const viewLimits = resolveSearchLimits(parsedView.data, limits);
    const scope = index.createScope();
    let seen = -1;
    const admit = (tool: ToolDescriptor) => {
      if (filter(tool) === true) scope.admit(tool.id);
    };
    const catchUp = () => {
      if (seen === version) return;
      const first = journal[0];
      if (seen >= 0 && first !== undefined && first.version <= seen + 1) {
        for (const change of journal) {
          if (change.version <= seen) continue;
          for (const { slot } of change.removed) scope.dropSlot(slot);
          // A tool added and removed again since is not there any more: `admit` skips ids without a slot.
          for (const tool of change.added) if (descriptors.get(tool.id) === tool) admit(tool);
        }
      } else {
        scope.clear();
        for (const tool of descriptors.values()) admit(tool);
      }
      seen = version;
    };
    return createReader({
      index: scope,
      size: () => scope.count,
      tools: function* () {
        for (const tool of descriptors.values()) if (scope.has(tool.id)) yield tool;
      },
      stamp: () => version,
      sync: catchUp,
    }, viewLimits);
  }

  const catalog: Catalog = {
    get size() {
      return descriptors.size;
    },
    limits,
    search: whole.search,
    searchAsync: whole.searchAsync,
    embedQueries: whole.embedQueries,
    withOwnQueryVectors: whole.withOwnQueryVectors,
    likelyTools: whole.likelyTools,
    searchMany: whole.searchMany,
    searchWithEvidence: whole.searchWithEvidence,
    explain: whole.explain,
    searchManyWithEvidence: whole.searchManyWithEvidence,
    servers: whole.servers,
    browse: whole.browse,
    describe: whole.describe,
    get: whole.get,
    named: whole.named,
    list: whole.list,
    sources: whole.sources,
    add(toolsToAdd: ToolInput[]): AddResult {
      const { accepted, rejected } = validate(toolsToAdd);
      insert(accepted);
      if (accepted.length > 0) record(accepted, []);
      for (const entry of rejected) logger.warn({ index: entry.index, toolId: entry.id, code: entry.code }, 'tool rejected');
      logger.debug({ added: accepted.length, rejected: rejected.length, size: descriptors.size }, 'tools added');
      return { added: accepted, rejected };
    },
    remove(ids: string[]): string[] {
      if (!Array.isArray(ids)) {
        throw new CatalogError('invalid_query', `Invalid remove input: expected an array of ids, received ${describeType(ids)}.`);
      }
      const removed = [...new Set(ids)].filter((id) => typeof id === 'string' && descriptors.has(id));
      if (removed.length === 0) return removed;
      const slots = removed.map((id) => ({ id, slot: index.slotFor(id) as number }));
      for (const { slot } of slots) vectors.clear(slot);
      index.remove(removed);
      for (const id of removed) {
        const tool = descriptors.get(id) as ToolDescriptor;
        descriptors.delete(id);
        hitCache.delete(id);
        unembedded.delete(id);
        const named = idsByName.get(tool.name);
        named?.delete(id);
        if (named && named.size === 0) idsByName.delete(tool.name);
      }
      record([], slots);
      logger.debug({ removed: removed.length, size: descriptors.size }, 'tools removed');
      return removed;
    },
    view: createView,
    setOwnerContext(context: OwnerContext): void {
      const parsed = ownerContextSchema.safeParse(context);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const path = z.core.toDotPath(issue?.path ?? []);
        throw new CatalogError('invalid_options', `Invalid owner context: field \`${path || '(context)'}\`: ${issue?.message ?? 'invalid'}.`, path === '' ? {} : { path });
      }
      const { source, owner } = parsed.data;
      const key = `${source}:${owner}`;
      const text = sanitizeText(parsed.data.text, { maxLength: MAX_OWNER_CONTEXT_INDEXED });
      const summary = text === '' ? '' : firstSentence(parsed.data.text.slice(0, MAX_OWNER_CONTEXT_INDEXED));
      if ((ownerContexts.get(key) ?? '') === text && (ownerSummaries.get(key) ?? '') === summary) return;
      if (text === '') ownerContexts.delete(key);
      else ownerContexts.set(key, text);
      if (summary === '') ownerSummaries.delete(key);
      else ownerSummaries.set(key, summary);
      const tools = toolsOf(source, owner);
      if (tools.length === 0) return;
      // Views see this as the owner's tools removed and added again, and catch up as for any change.
      record(tools, reindex(tools));
      logger.debug({ source, owner, tools: tools.length, chars: text.length }, 'owner context set');
    },
    updateEmbeddings,
  };

  const initial = validate(tools);
  const invalid = initial.rejected.find((entry) => entry.code !== 'reserved_name');
  if (invalid) {
    throw new CatalogError(invalid.code === 'duplicate_id' ? 'duplicate_id' : 'invalid_tool', invalid.message, {
      index: invalid.index,
      path: invalid.path ?? `tools[${invalid.index}].name`,
    });
  }
  for (const entry of initial.rejected) logger.warn({ name: entry.id, index: entry.index }, 'tool with a reserved name skipped');
  insert(initial.accepted);
  logger.debug({ size: descriptors.size }, 'catalog built');
  return catalog;
}

/**
 * How many of the top hits (scores best first, at most `limit`) are confident picks: those scoring at least
 * `ratio` × the top score, and only when the best one left out scores at most top / (1 + `margin`).
 */
export function pickLikely(scores: readonly number[], limit: number, ratio: number, margin: number): number {
  const top = scores[0];
  if (top === undefined || top <= 0) return 0;
  let count = 1;
  while (count < limit && count < scores.length && (scores[count] as number) >= ratio * top) count += 1;
  const next = scores[count] ?? 0;
  return next * (1 + margin) <= top ? count : 0;
}

function errorMessage(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 300);
}

function roundScore(score: number): number {
  const factor = 10 ** SCORE_DECIMALS;
  return Math.round(score * factor) / factor;
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

function entryLabel(entry: unknown, position: number): string {
  const name = typeof entry === 'object' && entry !== null ? (entry as { name?: unknown }).name : undefined;
  // Only a short, clean name is echoed back; the rest of the payload never is.
  return typeof name === 'string' && /^[\w.@/-]{1,64}$/.test(name) ? `tools[${position}] ("${name}")` : `tools[${position}]`;
}
