// Query expansion for common tool intents. A query word from a group also searches the group's other words
// at reduced weight, so "remove a file" finds `delete_file` without outranking a tool that says "remove".
import { normalizeTerm } from './tokenize-text.js';

/** Groups of words that ask for the same thing of a tool. A word may sit in more than one group. */
export const INTENT_GROUPS: readonly (readonly string[])[] = [
  // verbs of tool intents
  ['remove', 'delete', 'erase', 'destroy', 'discard', 'purge', 'unlink'],
  ['find', 'search', 'lookup', 'query', 'locate', 'seek', 'discover'],
  ['make', 'create', 'add', 'new', 'generate', 'build', 'insert', 'open'],
  ['get', 'fetch', 'retrieve', 'obtain', 'read', 'load', 'lookup'],
  ['show', 'display', 'view', 'get'],
  ['list', 'enumerate', 'browse'],
  ['update', 'edit', 'modify', 'change', 'alter', 'patch'],
  ['send', 'post', 'publish', 'submit', 'deliver'],
  ['start', 'begin', 'launch', 'run', 'execute', 'invoke'],
  ['stop', 'halt', 'terminate', 'cancel', 'abort', 'kill'],
  ['check', 'verify', 'validate', 'test'],
  ['calculate', 'compute', 'evaluate'],
  ['convert', 'transform', 'translate'],
  ['download', 'export', 'save'],
  ['upload', 'import'],
  ['detect', 'identify', 'recognize', 'recognition', 'classify', 'classification'],
  ['summarize', 'summary', 'summarization'],
  ['buy', 'purchase', 'order'],
  ['book', 'reserve', 'reservation'],
  ['answer', 'reply', 'respond', 'response'],
  // common objects
  ['message', 'msg', 'chat'],
  ['email', 'mail', 'inbox'],
  ['image', 'picture', 'photo', 'pic', 'img'],
  ['video', 'clip', 'footage'],
  ['movie', 'film', 'cinema'],
  ['song', 'music', 'track', 'album'],
  ['audio', 'sound', 'speech', 'voice'],
  ['text', 'sentence', 'paragraph'],
  ['weather', 'forecast'],
  ['price', 'cost', 'fee', 'quote'],
  ['money', 'currency', 'cash'],
  ['stock', 'equity', 'ticker'],
  ['user', 'account', 'profile'],
  ['file', 'document', 'doc'],
  ['directory', 'folder', 'dir'],
  ['repo', 'repository'],
  ['issue', 'ticket', 'bug'],
  ['calendar', 'schedule', 'appointment', 'meeting'],
  ['location', 'place', 'address', 'geo'],
  ['car', 'vehicle', 'auto'],
  ['company', 'business', 'firm', 'corporation'],
  ['job', 'career', 'employment'],
  ['flight', 'airline', 'plane'],
  ['hotel', 'accommodation', 'lodging'],
  ['news', 'headline', 'article'],
  ['recipe', 'cook', 'dish'],
  ['phone', 'mobile', 'telephone'],
  // common abbreviations of tool words, each one meaning only ("ts" is as often a timestamp as TypeScript)
  ['information', 'info'],
  ['application', 'app'],
  ['configuration', 'config'],
  ['environment', 'env'],
  ['authentication', 'auth'],
  ['database', 'db'],
  ['javascript', 'js'],
  ['kubernetes', 'k8s'],
];


/** A query term with its weight: 1 for the query's own terms, less for an expansion. */
export interface WeightedTerm {
  term: string;
  weight: number;
  /** The query term this one stands for (itself for an original term). */
  origin: string;
}

/** stem -> related stems, built once from the groups through the same normalisation as the index. */
const RELATED_TERMS: ReadonlyMap<string, readonly string[]> = buildRelatedTerms(INTENT_GROUPS);

function buildRelatedTerms(groups: readonly (readonly string[])[]): Map<string, string[]> {
  const related = new Map<string, Set<string>>();
  for (const group of groups) {
    // Stop words (e.g. "new" is not one, but guard anyway) drop out of the group.
    const stems = [...new Set(group.map((word) => normalizeTerm(word)).filter((s): s is string => !!s))];
    for (const stem of stems) {
      const set = related.get(stem) ?? new Set<string>();
      for (const other of stems) if (other !== stem) set.add(other);
      related.set(stem, set);
    }
  }
  return new Map([...related].map(([stem, set]) => [stem, [...set].sort()]));
}

/** The related stems for one stemmed query term (empty when it is in no group). */
export function relatedTerms(term: string): readonly string[] {
  return RELATED_TERMS.get(term) ?? [];
}

/**
 * Adds the intent-table relatives of `terms` at `expansionWeight`; a term already in the query keeps weight 1
 * and is never expanded twice.
 */
export function expandQueryTerms(terms: readonly string[], expansionWeight: number): WeightedTerm[] {
  const out: WeightedTerm[] = terms.map((term) => ({ term, weight: 1, origin: term }));
  const seen = new Set(terms);
  for (const term of terms) {
    for (const relative of relatedTerms(term)) {
      if (seen.has(relative)) continue;
      seen.add(relative);
      out.push({ term: relative, weight: expansionWeight, origin: term });
    }
  }
  return out;
}

/** Words that ask to destroy or take away (a destructive request). */
const DESTRUCTIVE_INTENT_WORDS = ['delete', 'remove', 'drop', 'erase', 'destroy', 'purge', 'wipe', 'discard', 'unlink', 'uninstall', 'revoke', 'kill', 'terminate', 'truncate', 'clear', 'reset', 'forget'];
/** Words that ask only to look (a read-only request). */
const READ_INTENT_WORDS = ['list', 'get', 'show', 'read', 'find', 'search', 'view', 'fetch', 'retrieve', 'lookup', 'look', 'count', 'describe', 'inspect', 'browse', 'display', 'query', 'check'];
const DESTRUCTIVE_INTENT = new Set(DESTRUCTIVE_INTENT_WORDS.map((word) => normalizeTerm(word)));
const READ_INTENT = new Set(READ_INTENT_WORDS.map((word) => normalizeTerm(word)));

/** 1 when the query asks only to look, -1 when it asks only to destroy or take away, 0 otherwise. */
export function queryFacet(terms: readonly string[]): number {
  let read = false;
  let destructive = false;
  for (const term of terms) {
    if (READ_INTENT.has(term)) read = true;
    if (DESTRUCTIVE_INTENT.has(term)) destructive = true;
  }
  return read === destructive ? 0 : read ? 1 : -1;
}

/**
 * Pairs of verbs that ask for opposite things of a tool: a query on one side does not want a tool named for the
 * other ("run a command" and `force_terminate`). Words as written (a query's and a name's words are compared with
 * their inflections, not their stems: "terminal" is no "terminate").
 */
export const OPPOSITE_INTENTS: readonly (readonly [readonly string[], readonly string[]])[] = [
  [['start', 'begin', 'launch', 'run', 'execute', 'invoke', 'resume'], ['stop', 'halt', 'terminate', 'cancel', 'abort', 'kill', 'pause']],
  [['create', 'add', 'insert', 'generate'], ['remove', 'delete', 'erase', 'destroy', 'discard', 'purge', 'drop']],
  [['open'], ['close']],
  [['enable', 'activate'], ['disable', 'deactivate']],
  [['show', 'unhide'], ['hide']],
  [['lock'], ['unlock']],
  [['connect'], ['disconnect']],
  [['attach'], ['detach']],
  [['install'], ['uninstall']],
  [['subscribe'], ['unsubscribe']],
  [['follow'], ['unfollow']],
  [['mute'], ['unmute']],
  [['pin'], ['unpin']],
  [['archive'], ['unarchive']],
  [['upload'], ['download']],
  [['grant'], ['revoke']],
  [['approve', 'accept'], ['reject', 'decline', 'deny']],
  [['encrypt'], ['decrypt']],
  [['compress', 'zip'], ['decompress', 'unzip']],
  [['block', 'ban'], ['unblock', 'unban']],
  [['star'], ['unstar']],
  [['assign'], ['unassign']],
  [['publish'], ['unpublish']],
  [['increase'], ['decrease']],
];

/**
 * Stems of the verbs a tool's name leads with to say its action (`check_crawl_status`, `list_issues`): the verb
 * groups at the head of `INTENT_GROUPS` (up to the detection group, whose words are often nouns) and every verb of
 * `OPPOSITE_INTENTS`.
 */
export const ACTION_VERB_STEMS: ReadonlySet<string> = new Set(
  [...INTENT_GROUPS.slice(0, 15).flat(), ...OPPOSITE_INTENTS.flatMap(([first, second]) => [...first, ...second])]
    .map((word) => normalizeTerm(word))
    .filter((stem): stem is string => stem !== undefined),
);

/** Whether `word` (lower case) is `base` or one of its regular inflections (runs, running, created, creating). */
function inflects(word: string, base: string): boolean {
  if (word === base) return true;
  if (!word.startsWith(base.endsWith('e') ? base.slice(0, -1) : base)) return false;
  const stem = base.endsWith('e') ? base.slice(0, -1) : base;
  const rest = word.slice(stem.length);
  if (base.endsWith('e')) return rest === 'es' || rest === 'ed' || rest === 'ing';
  const last = base.at(-1) as string;
  return rest === 's' || rest === 'es' || rest === 'ed' || rest === 'ing' || rest === `${last}ing` || rest === `${last}ed`;
}

/**
 * The intent sides the words are on: 2·pair for the first side of a pair, 2·pair + 1 for the second, ascending. A
 * query's words count in any inflection ("running"); a name's only as the verb itself ("drop_index", not
 * `dropped_items`), so `inflected` is false for names.
 */
export function intentSides(words: readonly string[], inflected: boolean): number[] {
  const sides = new Set<number>();
  for (const word of words) {
    if (!inflected) {
      // A name's word: one lookup (names are many; this runs for every tool added).
      for (const side of SIDES_OF_VERB.get(word) ?? []) sides.add(side);
      continue;
    }
    OPPOSITE_INTENTS.forEach(([first, second], pair) => {
      if (first.some((base) => inflects(word, base))) sides.add(2 * pair);
      if (second.some((base) => inflects(word, base))) sides.add(2 * pair + 1);
    });
  }
  return [...sides].sort((a, b) => a - b);
}

/** Each verb of `OPPOSITE_INTENTS`, and its -s form, to the sides it is on. */
const SIDES_OF_VERB: ReadonlyMap<string, readonly number[]> = (() => {
  const map = new Map<string, number[]>();
  OPPOSITE_INTENTS.forEach((pairSides, pair) => {
    pairSides.forEach((verbs, side) => {
      for (const verb of verbs) {
        for (const form of [verb, `${verb}s`]) {
          const list = map.get(form) ?? [];
          if (!list.includes(2 * pair + side)) list.push(2 * pair + side);
          map.set(form, list);
        }
      }
    });
  });
  return map;
})();

/** The sides opposite to `sides`, leaving out any pair both of whose sides are in `sides`. */
export function oppositeSides(sides: readonly number[]): number[] {
  const on = new Set(sides);
  return sides.filter((side) => !on.has(side ^ 1)).map((side) => side ^ 1);
}
