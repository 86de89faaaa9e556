// Every word a model reads of a search's answer, in every route: `tool_search` in tools and directory modes,
// `tools.search` and the run's summary in code mode, and the text of a native answer. The plain hits when the
// evidence is strong; when every search is weak, one note (the same wording in each route: only the way to list a
// server's tools is the route's own), the guesses and one page of the server map. The catalog ranks and pages the
// map within the byte budget these answers give it; the gateway passes the data; the words are here.
import type { SearchAnswer, SearchHit, ServerMap, ServerSummary } from '@tool-search/catalog';
import { SERVERS_OFFSET_ARG, TOOL_SEARCH } from './control-tools.js';

/** How many of a weak answer's hits it shows (they are guesses). */
export const WEAK_GUESSES = 5;
/** Most UTF-8 bytes of a weak `tool_search` answer's JSON (its note, guesses and map page together). */
export const WEAK_ANSWER_BYTES = 8_192;
/** Most UTF-8 bytes of one page of the server map on its own (`tool_search({})`, `{ servers_offset }`, code and native answers). */
export const SERVER_MAP_PAGE_BYTES = 8_192;
/** Longest one-line description of a weak guess, in characters. */
const WEAK_DESCRIPTION_CHARS = 80;
/** Least bytes a weak answer leaves its map page: a batch's guesses are cut to leave it (each search keeps its first). */
const MIN_WEAK_MAP_BYTES = 1_024;
/**
 * Servers on a weak answer's map page: the most relevant, each with room for its tool names nearest the request
 * (the next page, `{ query, servers_offset }`, continues the same ranking). Measured on the realmcp user-phrased
 * requests (155, 85 of whose first answers are weak; model-written calls name a fitting tool in 100 % at every size),
 * with the compact guesses (one sentence of at most 80 characters, parameter names without types):
 *
 * | weak answer budget / servers | fitting tool named in the first answer | mean first answer | mean weak answer |
 * | --- | ---: | ---: | ---: |
 * | 4 KB / 4 | 83.87 % | 3,287 B | 3,459 B |
 * | 6 KB / 6 | 84.52 % | 3,892 B | 4,564 B |
 * | 8 KB / 10 | 90.97 % | 5,156 B | 6,868 B |
 * | 8 KB / 12 | 93.55 % | 5,738 B | 7,929 B |
 * | 8 KB / 16 | 94.19 % | 5,880 B | 8,188 B |
 * | 10 KB / 21 (every tool name) | 99.35 % | 6,987 B | 10,206 B |
 *
 * The misses are requests whose fitting tool shares no word with them ("what is 17 plus 25" for `get-sum`): only a
 * map that lists that server's names reaches them, so the names are what buys the rate, and the issue's two goals
 * (a weak answer within 4 KB, a fitting tool named in 95 %) cannot both hold at this size. The budget is 8 KB with
 * 16 servers: the most named within a mean first answer of 6 KB.
 */
export const WEAK_MAP_SERVERS = 16;

/** Where an answer is read: `tool_search` (tools, directory), code mode's `tools.search` and run, a native search. */
export type AnswerRoute = 'tools' | 'code' | 'native';

/** The first words of every weak answer, in every route. */
const WEAK_LEAD = 'No tool clearly matches';

/**
 * The note of a weak answer: one wording in every route. Where hits are shown they are called guesses; the way to
 * list one server's tools is named only where the route has it (`tool_search({ server })` in tools mode).
 */
export function renderWeakNote(route: AnswerRoute): string {
  const guesses = route === 'native' ? '.' : ': the hits are guesses.';
  const browse = route === 'tools' ? `${TOOL_SEARCH}({ server }) lists its tools, or ` : '';
  return `${WEAK_LEAD}${guesses} Pick a server below by meaning, then ${browse}search again in the words its tools use.`;
}

/** One page of the server map as an answer carries it: the catalog's page, whose `next` pages on by `servers_offset`. */
export type ServerMapPage = ServerMap<typeof SERVERS_OFFSET_ARG>;

/** What an answer asks of the map: the bytes it leaves the page, its most servers, the tools it already shows. */
export interface ServerMapRequest {
  maxBytes: number;
  maxServers?: number | undefined;
  /** Ids the answer shows already: their names are not listed again. */
  leaveOut?: readonly string[] | undefined;
}

/**
 * One page of the server map ranked for the answer's request, first page (the gateway reads it from the catalog's
 * `servers` with `offsetKey: SERVERS_OFFSET_ARG`, so the page's bytes are the bytes the model reads).
 */
export type ServerMapPager = (request: ServerMapRequest) => ServerMapPage;

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

/**
 * The top-level parameter names of an input signature (`{ path: string; depth?: number }` → `{ path; depth? }`):
 * what a guess needs to be judged, in a few bytes (`tool_describe` gives the types). A signature that is not an
 * object type is kept as it is.
 */
export function compactSignature(input: string): string {
  const trimmed = input.trim();
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return trimmed;
  const names: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let field = '';
  const flush = () => {
    const name = /^\s*([^:?\s]+)(\?)?\s*:/.exec(field);
    if (name) names.push(`${name[1]}${name[2] ?? ''}`);
    field = '';
  };
  let previous = '';
  for (const char of trimmed.slice(1, -1)) {
    const arrow = char === '>' && previous === '=';
    previous = char;
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '{' || char === '[' || char === '(' || char === '<') depth += 1;
    else if (char === '}' || char === ']' || char === ')' || (char === '>' && !arrow)) depth -= 1;
    else if (char === ';' && depth === 0) {
      flush();
      continue;
    }
    field += char;
  }
  flush();
  return names.length === 0 ? trimmed.replace(/\s+/g, ' ') : `{ ${names.join('; ')} }`;
}

/** A weak answer's guesses: its first `WEAK_GUESSES` hits, each `{ id, description, input }` in one short line. */
function renderWeakGuesses(hits: readonly SearchHit[]): WeakGuess[] {
  return hits.slice(0, WEAK_GUESSES).map((hit) => ({ id: hit.id, description: oneLine(hit.description), input: compactSignature(hit.input), ...(hit.alsoOn ? { alsoOn: hit.alsoOn } : {}) }));
}

/** UTF-8 bytes of a value's JSON. */
function jsonBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}

/** A weak `tool_search` answer. */
export interface WeakSearchAnswer {
  evidence: 'weak';
  note: string;
  hits?: WeakGuess[];
  results?: Array<{ query: string; hits: WeakGuess[] }>;
  servers: ServerMapPage;
}

/** One search of a `tool_search` call: its query and the catalog's answer. */
export interface AnsweredSearch {
  query: string;
  answer: Pick<SearchAnswer, 'hits' | 'evidence'>;
}

/**
 * The answer to a `tool_search` call whose every search was weak: the note, each search's guesses, and the first
 * page of the map ranked for the call's first query, within `WEAK_ANSWER_BYTES` (the map gets what the rest
 * leaves, at least `MIN_WEAK_MAP_BYTES`, and lists none of the names the guesses show).
 */
export function renderWeakAnswer(searches: readonly AnsweredSearch[], options: { single: boolean; map: ServerMapPager }): WeakSearchAnswer {
  const note = renderWeakNote('tools');
  const empty: ServerMapPage = { servers: [], omitted: 0 };
  const answer: WeakSearchAnswer = options.single
    ? { evidence: 'weak', note, hits: renderWeakGuesses(searches[0]?.answer.hits ?? []), servers: empty }
    : { evidence: 'weak', note, results: searches.map((search) => ({ query: search.query, hits: renderWeakGuesses(search.answer.hits) })), servers: empty };
  // A batch's guesses could leave the map too little: drop the last guess of the longest list (each search keeps
  // its first) until the map has its share.
  const lists = answer.hits ? [answer.hits] : (answer.results ?? []).map((result) => result.hits);
  while (jsonBytes(answer) - jsonBytes(answer.servers) > WEAK_ANSWER_BYTES - MIN_WEAK_MAP_BYTES) {
    const longest = lists.reduce((a, b) => (b.length > a.length ? b : a), lists[0] ?? []);
    if (longest.length <= 1) break;
    longest.pop();
  }
  const rest = jsonBytes(answer) - jsonBytes(answer.servers);
  const shown = lists.flat().map((guess) => guess.id);
  answer.servers = options.map({ maxBytes: Math.max(MIN_WEAK_MAP_BYTES, WEAK_ANSWER_BYTES - rest), maxServers: WEAK_MAP_SERVERS, leaveOut: shown });
  return answer;
}

/**
 * The answer to a `tool_search` call's searches (tools and directory modes): the hits as they are (`single`), or
 * each query with its hits; when every search is weak, `renderWeakAnswer`.
 */
export function renderSearchAnswer(searches: readonly AnsweredSearch[], options: { single: boolean; map: ServerMapPager }): SearchHit[] | Array<{ query: string; hits: SearchHit[] }> | WeakSearchAnswer {
  if (searches.length > 0 && searches.every((search) => search.answer.evidence === 'weak')) return renderWeakAnswer(searches, options);
  return options.single ? (searches[0]?.answer.hits ?? []) : searches.map((search) => ({ query: search.query, hits: search.answer.hits }));
}

/** The answer to `tool_search({ server, query })`: how many of the server's tools matched, and the best of them. */
export interface ServerSearchAnswer {
  server: string;
  /** How many of the server's tools match the query at all (the hits are the best `limit` of them). */
  matched: number;
  toolCount: number;
  hits: SearchHit[];
}

/** The words of a search within one server that matched some of its tools. */
export function renderServerSearchAnswer(found: { server: string; matched: number; toolCount: number; hits: SearchHit[] }): ServerSearchAnswer {
  return { server: found.server, matched: found.matched, toolCount: found.toolCount, hits: found.hits };
}

/** The note of a `{ server, query }` search that matched none of the server's tools: they follow by name. */
export function renderNoServerMatchNote(server: string): string {
  return `No tool of ${server} matches; its tools by name (${TOOL_SEARCH}({ server, offset }) pages on):`;
}

/** A weak `tools.search` answer inside code: the hits with the note and a page of the map on them. */
export interface CodeWeakSearchAnswer {
  hits: SearchHit[];
  evidence: 'weak';
  note: string;
  servers: ServerMapPage;
}

/** What `tools.search(query)` returns inside code: the hits; when weak, `{ hits, evidence, note, servers }`. */
export function renderCodeSearchAnswer(answer: Pick<SearchAnswer, 'hits' | 'evidence'>, map: ServerMapPager): SearchHit[] | CodeWeakSearchAnswer {
  if (answer.evidence !== 'weak') return answer.hits;
  return { hits: answer.hits, evidence: 'weak', note: renderWeakNote('code'), servers: map({ maxBytes: SERVER_MAP_PAGE_BYTES }) };
}

/** What a code run returns: its value and summary; when every search of the run was weak, the note and a page of the map. */
export function renderCodeRunAnswer<Run extends object>(run: Run, options: { weak: boolean; map: ServerMapPager }): Run | (Run & { evidence: 'weak'; note: string; servers: ServerMapPage }) {
  if (!options.weak) return run;
  return { ...run, evidence: 'weak', note: renderWeakNote('code'), servers: options.map({ maxBytes: SERVER_MAP_PAGE_BYTES }) };
}

/** One server of the map as a line of text: its summary and tool names, or that it is starting. */
function serverLine(server: ServerSummary): string {
  if (server.state === 'starting') return `- ${server.owner}: starting (its tools are not listed yet; try again in a moment)`;
  const more = server.toolCount - server.tools.length;
  return `- ${server.owner}: ${server.summary} Tools: ${server.tools.join(', ')}${more > 0 ? ` (+${more} more)` : ''}`;
}

/** The server map as the text of a weak native answer: the note, then one line per server. */
export function renderServerMapText(map: ServerMapPage): string {
  const lines = map.servers.map(serverLine);
  if (map.omitted > 0) lines.push(`(${map.omitted} more servers)`);
  return `${renderWeakNote('native')}\n${lines.join('\n')}`;
}
