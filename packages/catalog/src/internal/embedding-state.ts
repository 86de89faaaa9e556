// EmbeddingState: the optional embedder's side of the catalog. Which tools still need a vector, the queue that
// embeds them one update at a time, the pause after a failure, and the query vectors already embedded.
import type { Logger } from 'pino';
import { CatalogError } from '../errors.js';
import type { Embedder, EmbeddingCache, EmbeddingUpdate, ToolDescriptor } from '../types.js';
import { contentHash } from './content-hash.js';
import { describeType } from './describe-type.js';
import type { SearchIndex } from './search-index.js';
import type { ToolStore } from './tool-store.js';
import { toolEmbeddingText } from './tool-embedding-text.js';
import { unitVector, type VectorIndex } from './vector-index.js';

/** Texts per `embed` call when the embedder does not say. */
const DEFAULT_EMBED_BATCH = 64;
/** Query vectors remembered per catalog and per reader (the same request is often searched again). */
const QUERY_VECTOR_CACHE_SIZE = 256;
/** Characters of a query sent to the embedder. */
const MAX_EMBEDDED_QUERY = 2_000;
/**
 * After the embedder fails, `searchAsync` leaves it alone this long (lexical hits at once, no call that may hang
 * until its timeout); an explicit `updateEmbeddings()` still tries, and a success ends the pause.
 */
const EMBEDDER_PAUSE_MS = 30_000;

/** Query text -> its vector, oldest first, at most `QUERY_VECTOR_CACHE_SIZE`. */
export type QueryVectors = Map<string, Float32Array>;

/** What the embedding state reads and writes: the store's tools, the index's slots, the vectors by slot. */
export interface EmbeddingParts {
  embedder: Embedder | undefined;
  cache: EmbeddingCache;
  store: ToolStore;
  index: SearchIndex;
  vectors: VectorIndex;
  logger: Logger;
}

/** Tool and query vectors for one catalog, embedded in the background of its searches. */
export class EmbeddingState {
  /** Ids of catalogued tools that have no vector yet. */
  private readonly unembedded = new Set<string>();
  /**
   * Query vectors embedded so far, so one text is embedded once for the whole catalog. A reader fuses a synchronous
   * search only with the vectors it embedded itself (its own `known`), never with another reader's.
   */
  private readonly queryVectors: QueryVectors = new Map();
  /** Embedding updates run one after another; each takes the tools unembedded when it starts. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Until when `searchAsync` does not call the embedder (set by a failure). */
  private pausedUntil = 0;

  constructor(private readonly parts: EmbeddingParts) {}

  /** Marks new tools as waiting for a vector (nothing without an embedder). */
  track(batch: readonly ToolDescriptor[]): void {
    if (this.parts.embedder) for (const tool of batch) this.unembedded.add(tool.id);
  }

  forget(id: string): void {
    this.unembedded.delete(id);
  }

  /** Embeds the tools that have no vector yet; updates queue behind each other. */
  update(): Promise<EmbeddingUpdate> {
    const active = this.parts.embedder;
    if (active === undefined) return Promise.resolve({ vectors: 0, embedded: 0, fromCache: 0, failed: 0 });
    const next = this.queue.then(() => this.runUpdate(active));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The vector of `query` when this reader embedded it before (`known`) and tools have vectors. */
  known(known: QueryVectors, query: string): Float32Array | undefined {
    if (this.parts.embedder === undefined || this.parts.vectors.size === 0) return undefined;
    return known.get(queryText(query));
  }

  /**
   * The query's vector for `searchAsync`, embedding the tools first when some wait; undefined (logged) when there
   * is no embedder, it is paused, or it fails.
   */
  async vectorFor(query: string, known: QueryVectors): Promise<Float32Array | undefined> {
    const active = this.parts.embedder;
    if (active === undefined || query.trim() === '' || this.paused()) return undefined;
    if (this.unembedded.size > 0) await this.update();
    try {
      if (!this.paused()) return await this.queryVector(active, query, known);
    } catch (error) {
      this.parts.logger.warn({ err: errorMessage(error) }, 'embedding the query failed; lexical hits only');
    }
    return undefined;
  }

  /** Embeds the tools not embedded yet and these queries (batched); a failure is logged and leaves search lexical. */
  async embedQueries(queries: readonly string[], known: QueryVectors): Promise<void> {
    if (!Array.isArray(queries) || queries.some((query) => typeof query !== 'string')) {
      throw new CatalogError('invalid_query', `Invalid embedQueries input: expected an array of strings, received ${describeType(queries)}.`);
    }
    const active = this.parts.embedder;
    if (active === undefined || this.paused()) return;
    if (this.unembedded.size > 0) await this.update();
    const wanted = [...new Set(queries.map(queryText))].filter((text) => text !== '');
    const texts = wanted.filter((text) => !this.queryVectors.has(text));
    const batchSize = batchSizeOf(active);
    for (let start = 0; start < texts.length && !this.paused(); start += batchSize) {
      const batch = texts.slice(start, start + batchSize);
      try {
        const output = this.checkedVectors(await active.embed(batch, { kind: 'query' }), batch.length);
        batch.forEach((text, i) => remember(this.queryVectors, text, output[i] as Float32Array));
      } catch (error) {
        this.pause();
        this.parts.logger.warn({ queries: batch.length, err: errorMessage(error) }, 'embedding the query failed; lexical hits only');
      }
    }
    for (const text of wanted) {
      const vector = this.queryVectors.get(text);
      if (vector !== undefined) remember(known, text, vector);
    }
  }

  private paused(): boolean {
    return Date.now() < this.pausedUntil;
  }

  private pause(): void {
    this.pausedUntil = Date.now() + EMBEDDER_PAUSE_MS;
  }

  private async queryVector(active: Embedder, query: string, known: QueryVectors): Promise<Float32Array> {
    const text = queryText(query);
    const cached = this.queryVectors.get(text);
    if (cached !== undefined) {
      remember(known, text, cached);
      return cached;
    }
    let vector: Float32Array;
    try {
      [vector] = this.checkedVectors(await active.embed([text], { kind: 'query' }), 1) as [Float32Array];
    } catch (error) {
      this.pause();
      throw error;
    }
    remember(this.queryVectors, text, vector);
    remember(known, text, vector);
    return vector;
  }

  private async runUpdate(active: Embedder): Promise<EmbeddingUpdate> {
    const update: EmbeddingUpdate = { vectors: 0, embedded: 0, fromCache: 0, failed: 0 };
    const work = await this.pendingWork(active, update);
    const batchSize = batchSizeOf(active);
    for (let start = 0; start < work.length; start += batchSize) {
      const batch = work.slice(start, start + batchSize);
      try {
        const output = this.checkedVectors(await active.embed(batch.map((entry) => entry.text), { kind: 'tool' }), batch.length);
        batch.forEach((entry, i) => {
          const vector = output[i] as Float32Array;
          this.parts.cache.set(entry.key, vector);
          this.setVector(entry.tool, vector);
        });
        update.embedded += batch.length;
        this.pausedUntil = 0;
      } catch (error) {
        update.failed += batch.length;
        update.error = errorMessage(error);
        this.pause();
        this.parts.logger.warn({ tools: batch.length, err: update.error }, 'embedding tools failed');
      }
    }
    update.vectors = this.parts.vectors.size;
    this.parts.logger.debug({ ...update }, 'embeddings updated');
    return update;
  }

  /** The unembedded tools whose vector is not in the cache (those that are take it from there, counted). */
  private async pendingWork(active: Embedder, update: EmbeddingUpdate): Promise<Array<{ tool: ToolDescriptor; text: string; key: string }>> {
    const work: Array<{ tool: ToolDescriptor; text: string; key: string }> = [];
    for (const id of [...this.unembedded].sort()) {
      const tool = this.parts.store.get(id);
      if (tool === undefined) {
        this.unembedded.delete(id);
        continue;
      }
      const text = toolEmbeddingText(tool);
      const key = `${active.id}:${await contentHash(text)}`;
      const cached = this.cachedVector(this.parts.cache.get(key));
      if (cached !== undefined) {
        this.setVector(tool, cached);
        update.fromCache += 1;
      } else {
        work.push({ tool, text, key });
      }
    }
    return work;
  }

  private setVector(tool: ToolDescriptor, vector: Float32Array): void {
    const slot = this.parts.index.slotFor(tool.id);
    if (slot === undefined || this.parts.store.get(tool.id) !== tool) return;
    this.parts.vectors.set(slot, vector);
    this.unembedded.delete(tool.id);
  }

  /** Checks what an embedder returned: one finite vector per text, all of one length. */
  private checkedVectors(output: unknown, count: number): Float32Array[] {
    if (!Array.isArray(output) || output.length !== count) {
      throw new Error(`the embedder returned ${Array.isArray(output) ? `${output.length} vectors` : describeType(output)} for ${count} texts`);
    }
    let dimensions = this.parts.vectors.dimensions;
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
  private cachedVector(cached: ArrayLike<number> | undefined): Float32Array | undefined {
    if (cached === undefined) return undefined;
    try {
      return this.checkedVectors([cached], 1)[0];
    } catch {
      return undefined;
    }
  }
}

function queryText(query: string): string {
  return query.trim().slice(0, MAX_EMBEDDED_QUERY);
}

function batchSizeOf(active: Embedder): number {
  return Math.max(1, Math.floor(active.maxBatchSize ?? DEFAULT_EMBED_BATCH));
}

function remember(cache: QueryVectors, text: string, vector: Float32Array): void {
  cache.delete(text);
  if (cache.size >= QUERY_VECTOR_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(text, vector);
}

/** An error's message, at most 300 characters, for a log line. */
export function errorMessage(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 300);
}
