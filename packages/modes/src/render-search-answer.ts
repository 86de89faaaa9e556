// What `tool_search` answers in tools and directory modes, and the words around it: the plain hits when the
// evidence is strong; when every search of the call is weak, a note that says so, the first guesses (each with a
// one-line description and its input signature, as strong hits have) and one page of the server map (without the
// names the guesses already show), the whole answer within `WEAK_ANSWER_BYTES`. The gateway passes the data; the words are here.
import { toolId, type SearchHit, type ServerSummary } from '@tool-search/catalog';
import { TOOL_SEARCH } from './control-tools.js';
import { pageServerMap, rankServers, type ServerMapPage } from './page-server-map.js';

/** How many of a weak answer's hits it shows (they are guesses). */
export const WEAK_GUESSES = 5;
/** Most UTF-8 bytes of a weak `tool_search` answer's JSON (its note, guesses and map page together). */
export const WEAK_ANSWER_BYTES = 8_192;
/** Most UTF-8 bytes of one page of the server map on its own (`tool_search({})`, `{ servers_offset }`). */
export const SERVER_MAP_PAGE_BYTES = 8_192;
/** Longest one-line description of a weak guess, in characters. */
const WEAK_DESCRIPTION_CHARS = 100;
/** Least bytes a weak answer leaves its map page: a batch's guesses are cut to leave it (each search keeps its first). */
const MIN_WEAK_MAP_BYTES = 1_024;
/**
 * Servers on a weak answer's map page: the most relevant few, each with room for its tool names nearest the request
 * (the next page, `{ query, servers_offset }`, continues the same ranking). Measured on the realmcp user-phrased
 * requests (155, 89 of whose first answers are weak; model-written calls name a fitting tool in 100 % at every size):
 * a fitting tool is named in 83.9 % of first answers at 4 KB with 4 servers (the best shape found within 4 KB), 84.5 %
 * at 6 KB with 6, and 91.0 % at 8 KB with 10, for a mean first answer of 5,417 bytes (3,427 at 4 KB). The two
 * goals (a weak answer within 4 KB, a fitting tool named at least as often as before) cannot both hold: the tool names
 * are what names the fitting tool, so the budget is 8 KB, the size of one page of the map (see the catalog's
 * bench/RESULTS.md, "Weak answer shape").
 */
export const WEAK_MAP_SERVERS = 10;

/** What a weak answer says, once, before its hits and the server map. */
export const WEAK_EVIDENCE_NOTE = `No tool clearly matches: the hits are guesses. Pick a server below by meaning, then ${TOOL_SEARCH}({ server }) lists its tools, or search again in the words its tools use.`;
/** What a weak `tools.search` answer says inside code (as `hits.note`). */
export const WEAK_EVIDENCE_NOTE_CODE = 'No tool clearly matches: the hits are guesses. Pick a server in hits.servers by meaning and search again in the words its tools use.';
/** What a code run whose every `tools.search` was weak says before the server map. */
export const WEAK_EVIDENCE_NOTE_RUN = 'No tool clearly matched the searches of this run: their hits were guesses. Pick a server in `servers` by meaning and search again in the words its tools use.';

/** A weak guess: what a model needs to judge and call it, in one line. */
export interface WeakGuess {
  id: string;
  description: string;
  input: string;
  /** Near-duplicates on other servers and what differs (the catalog's `alsoOn`), when the guess has any. */
  alsoOn?: SearchHit['alsoOn'];
}

/** The first sentence of a hit's description, at most `WEAK_DESCRIPTION_CHARS` characters. */
function oneLine(description: string): string {
  const end = /[.!?](?=\s|$)/.exec(description);
  const sentence = end === null ? description : description.slice(0, end.index + 1);
  return sentence.length <= WEAK_DESCRIPTION_CHARS ? sentence : `${sentence.slice(0, WEAK_DESCRIPTION_CHARS - 1).trimEnd()}…`;
}

/** A weak answer's guesses: its first `WEAK_GUESSES` hits, each `{ id, description, input }`. */
export function renderWeakGuesses(hits: readonly SearchHit[]): WeakGuess[] {
  return hits.slice(0, WEAK_GUESSES).map((hit) => ({ id: hit.id, description: oneLine(hit.description), input: hit.input, ...(hit.alsoOn ? { alsoOn: hit.alsoOn } : {}) }));
}

/** UTF-8 bytes of a value's JSON. */
function jsonBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}

/** The server map's input: every server the session sees, each with all its tool names (nearest the query first). */
export interface ServerMapInput {
  servers: readonly ServerSummary[];
  /** `<source>:<owner>` of the request's search hits, best first (they lead the ranking). */
  hitServers?: readonly string[] | undefined;
}

/** Options of `renderServerMapPage`. */
export interface RenderServerMapPageOptions {
  /** The request the map is ranked for (absent: by size). */
  query?: string | undefined;
  /** First server of the page in the ranked map (`servers_offset`, default 0). */
  offset?: number | undefined;
  /** Budget of the page's JSON (default `SERVER_MAP_PAGE_BYTES`). */
  maxBytes?: number | undefined;
  /** Most servers on the page (default `SERVERS_PER_PAGE`). */
  maxServers?: number | undefined;
}

/** One page of the map, ranked by relevance to `query` (by size without one). */
export function renderServerMapPage(input: ServerMapInput, options: RenderServerMapPageOptions = {}): ServerMapPage {
  const ranked = rankServers(input.servers, { query: options.query, hitServers: input.hitServers });
  return pageServerMap(ranked, { offset: options.offset, maxBytes: options.maxBytes ?? SERVER_MAP_PAGE_BYTES, query: options.query, maxServers: options.maxServers });
}

/** The map's servers without the tool names the guesses already show by id: those bytes go to other names. */
function withoutGuessedNames(map: ServerMapInput, guesses: readonly WeakGuess[]): ServerMapInput {
  const guessed = new Set(guesses.map((guess) => guess.id));
  if (guessed.size === 0) return map;
  const servers = map.servers.map((server) => {
    const tools = server.tools.filter((name) => !guessed.has(toolId(server.source, server.owner, name)));
    return tools.length === server.tools.length ? server : { ...server, tools };
  });
  return { ...map, servers };
}

/** A weak `tool_search` answer. */
export interface WeakSearchAnswer {
  evidence: 'weak';
  note: string;
  hits?: WeakGuess[];
  results?: Array<{ query: string; hits: WeakGuess[] }>;
  servers: ServerMapPage;
}

/**
 * The answer to a `tool_search` call whose every search was weak: the note, each search's guesses, and the first
 * page of the map ranked for the call's first query, within `WEAK_ANSWER_BYTES` (the map gets what the rest
 * leaves, at least `MIN_WEAK_MAP_BYTES`).
 */
export function renderWeakSearchAnswer(searches: ReadonlyArray<{ query: string; hits: readonly SearchHit[] }>, options: { single: boolean; map: ServerMapInput }): WeakSearchAnswer {
  const answer: WeakSearchAnswer = options.single
    ? { evidence: 'weak', note: WEAK_EVIDENCE_NOTE, hits: renderWeakGuesses(searches[0]?.hits ?? []), servers: { servers: [], omitted: 0 } }
    : { evidence: 'weak', note: WEAK_EVIDENCE_NOTE, results: searches.map((search) => ({ query: search.query, hits: renderWeakGuesses(search.hits) })), servers: { servers: [], omitted: 0 } };
  // A batch's guesses could leave the map too little: drop the last guess of the longest list (each search keeps
  // its first) until the map has its share.
  const lists = answer.hits ? [answer.hits] : (answer.results ?? []).map((result) => result.hits);
  while (jsonBytes(answer) - jsonBytes(answer.servers) > WEAK_ANSWER_BYTES - MIN_WEAK_MAP_BYTES) {
    const longest = lists.reduce((a, b) => (b.length > a.length ? b : a), lists[0] ?? []);
    if (longest.length <= 1) break;
    longest.pop();
  }
  const rest = jsonBytes(answer) - jsonBytes(answer.servers);
  const map = withoutGuessedNames(options.map, answer.hits ?? answer.results?.flatMap((result) => result.hits) ?? []);
  answer.servers = renderServerMapPage(map, { query: searches[0]?.query, maxBytes: Math.max(MIN_WEAK_MAP_BYTES, WEAK_ANSWER_BYTES - rest), maxServers: WEAK_MAP_SERVERS });
  return answer;
}

/** The note of a `{ server, query }` search that matched none of the server's tools: they follow by name. */
export function renderNoServerMatchNote(server: string): string {
  return `No tool of ${server} matches; its tools by name (${TOOL_SEARCH}({ server, offset }) pages on):`;
}
