// searchScoped: one reader's search. Lexical ranking within its scope, fused with the embedder's nearest tools
// when the query's vector is known, an exact id or name first; and the verdict on the answer's evidence.
import { CatalogError } from '../errors.js';
import type { LikelyToolsOptions, SearchAnswer, SearchHit, SearchOptions, SearchQuery, ToolDescription, ToolDescriptor } from '../types.js';
import { describeType } from './describe-type.js';
import { fuseRankings } from './fuse-rankings.js';
import { isWeakEvidence } from './ranking-settings.js';
import type { QueryCoverage } from './search-index.js';
import { checkQuery, resolveLimit, type ReaderContext } from './reader-context.js';
import { withToolFamilies } from './tool-families.js';

/** Most queries one `searchMany` call takes. */
export const MAX_QUERIES_PER_CALL = 16;
/** Default most tools `likelyTools` returns. */
export const DEFAULT_LIKELY_TOOLS = 3;
/** Scores are rounded so hits are stable and JSON-friendly (and ties broken by id). */
const SCORE_DECIMALS = 3;
/** With an embedder, how many leading hits a search's lexical evidence is read from. */
const FUSED_EVIDENCE_DEPTH = 3;

/**
 * The visible tool whose id is the query (trimmed), or else the tools it names: by their exact name first, then
 * by their name written another way (case, separators, qualified by server: `ToolStore.idsNamedLoosely`) when the
 * query is one word; none for an empty query. A query with a space is a request, not a name.
 */
export function exactMatches(context: ReaderContext, query: string): string[] {
  const trimmed = query.trim();
  if (trimmed === '') return [];
  if (context.visible(trimmed)) return [trimmed];
  const named = context.namedIds(trimmed);
  if (/\s/.test(trimmed)) return named;
  const loose = context.looselyNamedIds(trimmed).filter((id) => !named.includes(id));
  if (loose.length === 0) return named;
  // A name the query ends with as written ("apigen__mediainfo") before one it only spells alike (`media_info`).
  const lower = trimmed.toLowerCase();
  const closeness = (id: string) => {
    const name = (context.parts.store.get(id) as ToolDescriptor).name;
    return trimmed.endsWith(name) ? 0 : lower.endsWith(name.toLowerCase()) ? 1 : 2;
  };
  return [...named, ...loose.map((id) => ({ id, closeness: closeness(id) })).sort((a, b) => a.closeness - b.closeness).map((entry) => entry.id)];
}

/**
 * Lexical, or fused with the embedder's nearest tools when the query's vector is given or known (embedded
 * before); `'lexical'` never fuses (the likely-tools margin is calibrated on lexical scores).
 */
export function searchScoped(context: ReaderContext, query: string, options: SearchOptions = {}, given?: Float32Array | 'lexical', counted?: { matched?: number }): SearchHit[] {
  checkQuery(query);
  const { parts, scope } = context;
  const vector = given === 'lexical' ? undefined : (given ?? parts.embeddings.known(context.known, query));
  const limit = resolveLimit(options?.limit, context.limits);
  const server = options?.server;
  if (server !== undefined && typeof server !== 'string') {
    throw new CatalogError('invalid_query', `Invalid search server: expected "<source>:<owner>", received ${describeType(server)}.`);
  }
  // Within one server: the same scores, every tool ranked, then only that server's kept.
  const inServer = server === undefined ? undefined : (id: string) => parts.store.serverKeyOf(id) === server;
  const exact = inServer === undefined ? exactMatches(context, query) : exactMatches(context, query).filter(inServer);
  const depth = inServer !== undefined ? Math.max(scope.size(), 1) : vector === undefined ? limit + exact.length : Math.max(parts.settings.fusionDepth, limit + exact.length);
  let ranked = parts.index.rank(query, depth, scope.index);
  // Within one server: how many of its tools the words match at all (the embedder's neighbours are not matches).
  if (inServer !== undefined && counted !== undefined) counted.matched = new Set([...exact, ...ranked.filter((entry) => inServer(entry.id)).map((entry) => entry.id)]).size;
  if (vector !== undefined) {
    const nearest = parts.vectors.nearest(vector, Math.max(parts.settings.fusionDepth, depth), (slot) => parts.index.idAt(slot) as string, scope.index?.admittedSlots());
    const semantic = nearest.map(({ slot, similarity }) => ({ id: parts.index.idAt(slot) as string, score: similarity }));
    ranked = fuseRankings(ranked, semantic, parts.settings.fusion);
  }
  if (inServer !== undefined) ranked = ranked.filter((entry) => inServer(entry.id));
  const rounded = ranked.slice(0, limit + exact.length).map((entry) => ({ id: entry.id, score: roundScore(entry.score) }));
  rounded.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (exact.length === 0) return withToolFamilies(context, rounded.slice(0, limit).map((entry) => parts.hits.hit(entry.id, entry.score)));
  // An exact id or name always comes first, scored just above the best other hit.
  const exactSet = new Set(exact);
  const rest = rounded.filter((entry) => !exactSet.has(entry.id));
  const top = roundScore((rest[0]?.score ?? 0) + 1);
  return withToolFamilies(context, [...exact.map((id) => ({ id, score: top })), ...rest].slice(0, limit).map((entry) => parts.hits.hit(entry.id, entry.score)));
}

/**
 * `searchScoped` with the lexical evidence of its answer and the verdict on it (see `SearchAnswer`): the best
 * hit's, or, when the embedder reordered the hits, the best of the leading ones (a semantic hit placed first does
 * not make the lexical match behind it a guess).
 */
export function searchWithEvidence(context: ReaderContext, query: string, options: SearchOptions = {}, given?: 'lexical'): SearchAnswer {
  const { parts } = context;
  const counted: { matched?: number } = {};
  const hits = searchScoped(context, query, options, given, counted);
  const top = hits[0];
  const matched = counted.matched === undefined ? {} : { matched: counted.matched };
  if (top === undefined) return { hits, evidence: 'weak', coverage: 0, strength: 0, ...matched };
  if (exactMatches(context, query).includes(top.id)) return { hits, evidence: 'strong', coverage: 1, strength: 1, ...matched };
  const judged = given === 'lexical' || parts.embeddings.known(context.known, query) === undefined ? [top.id] : hits.slice(0, FUSED_EVIDENCE_DEPTH).map((hit) => hit.id);
  const isWeak = (entry: QueryCoverage) => isWeakEvidence(parts.settings, entry);
  const measured = parts.index.coverage(query, judged, context.scope.index);
  const best = measured.find((entry) => !isWeak(entry)) ?? measured[0] ?? { share: 0, strength: 0 };
  return { hits, evidence: isWeak(best) ? 'weak' : 'strong', coverage: roundScore(best.share), strength: roundScore(best.strength), ...matched };
}

/** Validates a `searchMany` input as a whole (so a bad entry fails the call before any query runs). */
export function checkMany(context: ReaderContext, queries: SearchQuery[], method: string): void {
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
    resolveLimit(entry.limit, context.limits);
  });
}

/** The few tools a request almost surely needs, described in full; none when the ranking is not confident. */
export function likelyTools(context: ReaderContext, request: string, options: LikelyToolsOptions = {}): ToolDescription[] {
  checkQuery(request);
  const { parts } = context;
  const limit = options?.limit ?? DEFAULT_LIKELY_TOOLS;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
    throw new CatalogError('invalid_limit', `Invalid likelyTools limit ${String(limit)}: expected an integer ≥ 1.`);
  }
  const capped = Math.min(limit, context.limits.maxSearchLimit - 1);
  if (capped < 1) return [];
  const hits = searchScoped(context, request, { limit: capped + 1 }, 'lexical');
  const picked = pickLikely(hits.map((hit) => hit.score), capped, parts.settings.likelyRatio, parts.settings.likelyMargin);
  const tools = hits.slice(0, picked).map((hit) => parts.hits.describe(parts.store.get(hit.id) as ToolDescriptor));
  if (tools.length > 0) parts.logger.debug({ toolIds: tools.map((tool) => tool.id) }, 'likely tools picked');
  return tools;
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

function roundScore(score: number): number {
  const factor = 10 ** SCORE_DECIMALS;
  return Math.round(score * factor) / factor;
}
