// A catalog embedding cache kept on disk: tool vectors survive a restart, so a host embeds only the tools it has
// not seen before. Keys are the catalog's `<embedder id>:<SHA-256 of the tool text>`, so a changed tool, another
// model or other settings simply miss. A cache only: a lost or corrupt file costs re-embedding, never an error.
import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EmbeddingCache } from '@tool-search/catalog';
import { pino, type Logger } from 'pino';
import { GatewayAdapterError } from './errors.js';

/** Options of `createFileEmbeddingCache`. */
export interface FileEmbeddingCacheOptions {
  /** The folder of the cache file (created 0700 on the first write). */
  dir: string;
  /** Most vectors kept; the least recently used go first. Default 20,000 (about 60 MB of 768-d vectors in memory). */
  maxEntries?: number | undefined;
  logger?: Logger | undefined;
}

/** An `EmbeddingCache` backed by a file, with `flush` for callers that want the writes on disk now. */
export interface FileEmbeddingCache extends EmbeddingCache {
  /** Vectors held now. */
  readonly size: number;
  /** The cache file. */
  readonly file: string;
  /** Writes the vectors set since the last write (also done after each batch of sets, on its own). */
  flush(): void;
}

/** The file in `dir`; the version in its name changes with the line format. */
const FILE_NAME = 'embeddings-v1.jsonl';
const DEFAULT_MAX_ENTRIES = 20_000;
/** The file is rewritten from memory once it holds this many times `maxEntries` lines (appends otherwise). */
const REWRITE_FACTOR = 1.5;

/**
 * A file of one vector a line (`{"k": key, "v": base64 float32}`), appended after each batch of new vectors and
 * rewritten (through a temp file and a rename) when it outgrows `maxEntries` or held lines it could not read. A
 * corrupt or truncated line is skipped with a warning. Throws `GatewayAdapterError('invalid_options')` on bad options.
 */
export function createFileEmbeddingCache(options: FileEmbeddingCacheOptions): FileEmbeddingCache {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  if (typeof options.dir !== 'string' || options.dir === '') {
    throw new GatewayAdapterError('invalid_options', `Invalid embedding cache dir: expected a folder path, received ${JSON.stringify(options.dir)}.`, { path: 'dir' });
  }
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new GatewayAdapterError('invalid_options', `Invalid embedding cache maxEntries ${String(maxEntries)}: expected an integer ≥ 1.`, { path: 'maxEntries' });
  }
  const log = (options.logger ?? pino({ level: 'silent' })).child({ component: 'embedding-cache' });
  const file = join(options.dir, FILE_NAME);
  const { vectors, lines, skipped } = readCacheFile(file, log);
  let linesInFile = lines;
  if (skipped > 0) log.warn({ file, skipped }, 'embedding cache lines unreadable; skipped');
  while (vectors.size > maxEntries) vectors.delete(vectors.keys().next().value as string);

  let pending: string[] = [];
  let scheduled = false;
  let rewriteNeeded = skipped > 0;

  function write(): void {
    scheduled = false;
    if (pending.length === 0 && !rewriteNeeded) return;
    const fresh = pending.filter((key) => vectors.has(key));
    pending = [];
    try {
      mkdirSync(options.dir, { recursive: true, mode: 0o700 });
      if (rewriteNeeded || linesInFile + fresh.length > maxEntries * REWRITE_FACTOR) {
        const temporary = `${file}.${process.pid}.tmp`;
        writeFileSync(temporary, [...vectors].map(([key, vector]) => `${formatLine(key, vector)}\n`).join(''), { mode: 0o600 });
        renameSync(temporary, file);
        linesInFile = vectors.size;
        rewriteNeeded = false;
      } else if (fresh.length > 0) {
        appendFileSync(file, fresh.map((key) => `${formatLine(key, vectors.get(key) as Float32Array)}\n`).join(''), { mode: 0o600 });
        linesInFile += fresh.length;
      }
    } catch (error) {
      // The vectors stay in memory; the next restart embeds them again.
      log.warn({ file, err: (error as Error).message }, 'embedding cache not written');
    }
  }

  return {
    file,
    get size() {
      return vectors.size;
    },
    get(key) {
      const vector = vectors.get(key);
      if (vector !== undefined) {
        // Least recently used first out: a hit moves to the end.
        vectors.delete(key);
        vectors.set(key, vector);
      }
      return vector;
    },
    set(key, vector) {
      if (!vectors.has(key)) pending.push(key);
      vectors.delete(key);
      vectors.set(key, Float32Array.from(vector));
      if (vectors.size > maxEntries) vectors.delete(vectors.keys().next().value as string);
      // The catalog sets a whole batch synchronously: one write after it, not one per vector.
      if (!scheduled) {
        scheduled = true;
        queueMicrotask(write);
      }
    },
    flush: write,
  };
}

/** The vectors a cache file holds (a later line for a key wins), with how many lines it has and how many were unreadable. */
function readCacheFile(file: string, log: Logger): { vectors: Map<string, Float32Array>; lines: number; skipped: number } {
  const vectors = new Map<string, Float32Array>();
  let lines = 0;
  let skipped = 0;
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') log.warn({ file, err: (error as Error).message }, 'embedding cache unreadable; starting empty');
  }
  for (const line of text.split('\n')) {
    if (line === '') continue;
    lines += 1;
    const entry = parseLine(line);
    if (entry === undefined) {
      skipped += 1;
      continue;
    }
    vectors.delete(entry.key);
    vectors.set(entry.key, entry.vector);
  }
  return { vectors, lines, skipped };
}

function formatLine(key: string, vector: Float32Array): string {
  return JSON.stringify({ k: key, v: Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64') });
}

function parseLine(line: string): { key: string; vector: Float32Array } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { k, v } = parsed as { k?: unknown; v?: unknown };
  if (typeof k !== 'string' || k === '' || typeof v !== 'string') return undefined;
  const bytes = Buffer.from(v, 'base64');
  if (bytes.byteLength === 0 || bytes.byteLength % 4 !== 0) return undefined;
  // Copied into its own aligned buffer (a Buffer's offset need not be a multiple of 4).
  const vector = new Float32Array(bytes.byteLength / 4);
  new Uint8Array(vector.buffer).set(bytes);
  if (!vector.every(Number.isFinite)) return undefined;
  return { key: k, vector };
}
