// createCatalog: validated descriptors, a ranking index and prompt-safe hits for very large tool catalogs.
import { pino, type Logger } from 'pino';
import { CatalogError } from './errors.js';
import { findSimilarIds } from './internal/find-similar-ids.js';
import { DEFAULT_RANKING, SearchIndex, type RankingSettings } from './internal/search-index.js';
import { renderInputSignature } from './render-input-signature.js';
import { sanitizeText } from './sanitize-text.js';
import { catalogOptionsSchema, toolInputSchema } from './schemas.js';
import { CONTROL_TOOL_NAMES, TOOL_SOURCES, toolId } from './tool-id.js';
import type {
  Catalog,
  CatalogOptions,
  DescribeResult,
  SearchHit,
  SearchOptions,
  SearchQuery,
  ToolDescriptor,
  ToolInput,
  ToolSource,
} from './types.js';

/** Default number of hits per search. */
export const DEFAULT_SEARCH_LIMIT = 8;
/** Default maximum `limit` per search; larger limits are clamped to it. */
export const DEFAULT_MAX_SEARCH_LIMIT = 20;
/** The hard ceiling for `maxSearchLimit`, whatever the options say. */
export const SEARCH_LIMIT_CEILING = 50;
/** Most queries one `searchMany` call takes. */
export const MAX_QUERIES_PER_CALL = 16;
/** Longest hit description, in characters. */
export const MAX_HIT_DESCRIPTION_LENGTH = 180;

const EMPTY_INPUT_SCHEMA = { type: 'object', properties: {} } as const;
const CONTROL_TOOLS = new Set(CONTROL_TOOL_NAMES);
/** Scores are rounded so hits are stable and JSON-friendly (and ties broken by id). */
const SCORE_DECIMALS = 3;

/** Internal options: the ranking settings are not public API, the benchmark script sets them. */
interface InternalCatalogOptions extends CatalogOptions {
  ranking?: RankingSettings;
}

/** Creates a searchable catalog from tool entries; throws `CatalogError` on an invalid entry or a duplicate id. */
export function createCatalog(tools: ToolInput[], options: CatalogOptions = {}): Catalog {
  const { ranking, ...publicOptions } = options as InternalCatalogOptions;
  const parsedOptions = catalogOptionsSchema.safeParse(publicOptions);
  if (!parsedOptions.success) {
    const issue = parsedOptions.error.issues[0];
    const field = issue?.path.join('.') ?? '';
    throw new CatalogError('invalid_options', `Invalid catalog option \`${field}\`: ${issue?.message ?? 'invalid'}.`, { field });
  }
  const maxSearchLimit = Math.min(parsedOptions.data.maxSearchLimit ?? DEFAULT_MAX_SEARCH_LIMIT, SEARCH_LIMIT_CEILING);
  const searchDefaultLimit = Math.min(parsedOptions.data.searchDefaultLimit ?? DEFAULT_SEARCH_LIMIT, maxSearchLimit);
  const limits = Object.freeze({ searchDefaultLimit, maxSearchLimit });
  const logger: Logger = (parsedOptions.data.logger ?? pino({ level: 'silent' })).child({ pkg: 'catalog' });

  const descriptors = new Map<string, ToolDescriptor>();
  const hitCache = new Map<string, Omit<SearchHit, 'score'>>();
  /** name -> ids, for describe by name and exact-name ranking. */
  const idsByName = new Map<string, Set<string>>();
  const index = new SearchIndex(ranking ?? DEFAULT_RANKING);

  function validate(entries: unknown): ToolDescriptor[] {
    if (!Array.isArray(entries)) {
      throw new CatalogError('invalid_tool', `Expected an array of tools, received ${describeType(entries)}.`);
    }
    const accepted: ToolDescriptor[] = [];
    const batchIds = new Set<string>();
    entries.forEach((entry, position) => {
      const parsed = toolInputSchema.safeParse(entry);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = issue?.path.join('.') || '(entry)';
        const label = entryLabel(entry, position);
        throw new CatalogError('invalid_tool', `Invalid tool ${label}: field \`${field}\`: ${issue?.message ?? 'invalid'}.`, {
          index: position,
          field,
        });
      }
      const input = parsed.data;
      if (CONTROL_TOOLS.has(input.name)) {
        logger.warn({ name: input.name, index: position }, 'control tool skipped');
        return;
      }
      const id = toolId(input.source, input.owner, input.name);
      if (descriptors.has(id) || batchIds.has(id)) {
        throw new CatalogError('duplicate_id', `Duplicate tool id "${id}" at tools[${position}]: ids must be unique.`, {
          index: position,
          field: 'name',
        });
      }
      batchIds.add(id);
      accepted.push({
        id,
        name: input.name,
        source: input.source,
        owner: input.owner,
        description: input.description ?? '',
        inputSchema: input.inputSchema ?? { ...EMPTY_INPUT_SCHEMA, properties: {} },
        ...(input.outputSchema ? { outputSchema: input.outputSchema } : {}),
        trusted: input.trusted ?? (input.source === 'openclaw' || input.source === 'plugin'),
        tags: input.tags ?? [],
      });
    });
    return accepted;
  }

  function insert(batch: ToolDescriptor[]): void {
    for (const tool of batch) {
      descriptors.set(tool.id, tool);
      const ids = idsByName.get(tool.name) ?? new Set<string>();
      ids.add(tool.id);
      idsByName.set(tool.name, ids);
    }
    index.add(batch);
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

  function resolveLimit(limit: unknown): number {
    if (limit === undefined) return limits.searchDefaultLimit;
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
      throw new CatalogError('invalid_limit', `Invalid search limit ${String(limit)}: expected an integer ≥ 1 (values above ${limits.maxSearchLimit} are clamped).`);
    }
    return Math.min(limit, limits.maxSearchLimit);
  }

  function exactMatches(query: string): string[] {
    const trimmed = query.trim();
    if (trimmed === '') return [];
    if (descriptors.has(trimmed)) return [trimmed];
    const named = idsByName.get(trimmed);
    if (named) return [...named].sort();
    return [];
  }

  function search(query: string, searchOptions: SearchOptions = {}): SearchHit[] {
    if (typeof query !== 'string') {
      throw new CatalogError('invalid_query', `Invalid search query: expected a string, received ${describeType(query)}.`);
    }
    const limit = resolveLimit(searchOptions?.limit);
    const exact = exactMatches(query);
    const ranked = index.rank(query, limit + exact.length);
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

  const catalog: Catalog = {
    get size() {
      return descriptors.size;
    },
    limits,
    search,
    searchMany(queries: SearchQuery[]): SearchHit[][] {
      if (!Array.isArray(queries)) {
        throw new CatalogError('invalid_query', `Invalid searchMany input: expected an array of { query, limit? }, received ${describeType(queries)}.`);
      }
      if (queries.length > MAX_QUERIES_PER_CALL) {
        throw new CatalogError('too_many_queries', `searchMany received ${queries.length} queries; at most ${MAX_QUERIES_PER_CALL} are allowed per call.`);
      }
      // Validate every entry before running any, so a bad entry fails the call as a whole.
      queries.forEach((entry, position) => {
        if (typeof entry !== 'object' || entry === null || typeof entry.query !== 'string') {
          throw new CatalogError('invalid_query', `Invalid query at queries[${position}]: expected { query: string, limit?: number }.`, { index: position, field: 'query' });
        }
        resolveLimit(entry.limit);
      });
      return queries.map((entry) => search(entry.query, entry.limit === undefined ? {} : { limit: entry.limit }));
    },
    describe(idOrName: string): DescribeResult {
      const key = typeof idOrName === 'string' ? idOrName.trim() : '';
      const byId = descriptors.get(key);
      if (byId) return { found: true, tool: describeTool(byId) };
      const named = idsByName.get(key);
      if (named && named.size === 1) {
        const tool = descriptors.get([...named][0] as string) as ToolDescriptor;
        return { found: true, tool: describeTool(tool) };
      }
      if (named && named.size > 1) {
        const ids = [...named].sort();
        return {
          found: false,
          reason: 'ambiguous',
          message: `"${sanitizeText(key, { maxLength: 140 })}" names ${ids.length} tools; describe one by its exact id.`,
          suggestions: ids,
        };
      }
      const suggestions = findSimilarIds(key, descriptors.values(), 3);
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
    get(id: string): ToolDescriptor | undefined {
      return descriptors.get(id);
    },
    list(): ToolDescriptor[] {
      return [...descriptors.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },
    sources(): Record<ToolSource, number> {
      const counts = Object.fromEntries(TOOL_SOURCES.map((source) => [source, 0])) as Record<ToolSource, number>;
      for (const tool of descriptors.values()) counts[tool.source] += 1;
      return counts;
    },
    add(toolsToAdd: ToolInput[]): ToolDescriptor[] {
      const batch = validate(toolsToAdd);
      insert(batch);
      logger.debug({ added: batch.length, size: descriptors.size }, 'tools added');
      return batch;
    },
    remove(ids: string[]): string[] {
      if (!Array.isArray(ids)) {
        throw new CatalogError('invalid_query', `Invalid remove input: expected an array of ids, received ${describeType(ids)}.`);
      }
      const removed = [...new Set(ids)].filter((id) => typeof id === 'string' && descriptors.has(id));
      index.remove(removed);
      for (const id of removed) {
        const tool = descriptors.get(id) as ToolDescriptor;
        descriptors.delete(id);
        hitCache.delete(id);
        const named = idsByName.get(tool.name);
        named?.delete(id);
        if (named && named.size === 0) idsByName.delete(tool.name);
      }
      logger.debug({ removed: removed.length, size: descriptors.size }, 'tools removed');
      return removed;
    },
  };

  function describeTool(tool: ToolDescriptor) {
    return {
      ...hitFor(tool.id, 1),
      inputSchema: tool.inputSchema,
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    };
  }

  insert(validate(tools));
  logger.debug({ size: descriptors.size }, 'catalog built');
  return catalog;
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
