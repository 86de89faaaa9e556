// NameEvidence: what a query's words say about tools' names and servers, as a score factor. A tool whose name the
// query covers whole ("read file" and `read_file`) counts more than one that shares a word with it
// (`read_multiple_files`); a query that names a server ("notion list users") lifts that server's tools; a name
// that asks the opposite of the query ("run a command" and `force_terminate`) counts less. Kept
// beside the postings, per slot: name words are looked up through their own small postings, so the cost follows
// the query's words, not the number of tools a query touches.
import type { IndexedField, RankingSettings } from './ranking-settings.js';
import { ACTION_VERB_STEMS, intentSides, oppositeSides, relatedTerms } from './intent-table.js';
import { isAdmittedSlot } from './index-scope.js';
import { normalizeTerm, type AnalyzedText } from './tokenize-text.js';

/** Name words tracked per tool (the rest of a longer name is left out), so the counts fit a byte. */
const MAX_NAME_WORDS = 255;

/** One query's naming evidence: `factor(slot)` while it is open, `close()` when the ranking is done. */
export interface NamingPass {
  /** The largest factor any tool can get for this query (a bound for pruning). */
  readonly bound: number;
  factor(slot: number): number;
  close(): void;
}

export class NameEvidence {
  /** Per owner number: the stems of its name, for a name of several words those written as one, and a pattern of it as written. */
  private readonly owners: Array<{ stems: string[]; joined: string | undefined; written: RegExp | undefined }> = [];
  /** Name stem (those not in the tool's owner's name) -> the slots whose name has it. */
  private readonly slotsByStem = new Map<string, number[]>();
  /** Per slot: its distinct name stems, to take it out again. */
  private readonly stemsOfSlot: Array<string[] | undefined> = [];
  private nameLengths = new Uint8Array(0);
  /** Per slot: the intent sides its name's words are on (`intentSides`), undefined for none. */
  private readonly nameSides: Array<readonly number[] | undefined> = [];
  /** Per slot: the first stem of its name past its owner's (the action of `firecrawl_crawl`, `check_crawl_status`). */
  private readonly leadStems: Array<string | undefined> = [];
  /** Scratch per slot: how many of its name stems the current query has (zeroed after each query). */
  private nameHits = new Uint8Array(0);
  private ownerOfSlot: readonly number[] = [];

  constructor(private readonly settings: RankingSettings) {}

  /** Records an owner the first time the index sees it (`number` in order of first sight). */
  addOwner(number: number, owner: AnalyzedText): void {
    const { words } = owner;
    const written = words.length === 0 ? undefined : new RegExp(`(?<![\\p{L}\\p{N}])${words.map(escapeRegExp).join('[\\s_.-]*')}(?![\\p{L}\\p{N}])`, 'giu');
    this.owners[number] = { stems: [...new Set(owner.terms)], joined: words.length > 1 ? normalizeTerm(words.join('')) : undefined, written };
  }

  /**
   * The owners `query` names: every word of the owner's name (or its name as one word) is in the query and, when
   * `ownerOnlyAsServer`, written as a server's name: first in the query, before a colon or "server", "mcp",
   * "tools", "api", after "in", "on", "via", "using", "with", "from", "through", "to", "into", "use", "my", "the",
   * or capitalised inside a sentence.
   */
  serversNamed(query: string, stems: ReadonlySet<string>): Set<number> {
    const named = new Set<number>();
    this.owners.forEach((owner, number) => {
      const every = owner.stems.length > 0 && owner.stems.every((stem) => stems.has(stem));
      if (!every && !(owner.joined !== undefined && stems.has(owner.joined))) return;
      if (!this.settings.ownerOnlyAsServer || owner.written === undefined || writtenAsServer(query, owner.written)) named.add(number);
    });
    return named;
  }

  /** Adds the name of the tool in `slot` (its owner already added); `ownerOfSlot` is the index's own table. */
  add(slot: number, fields: Record<IndexedField, AnalyzedText>, ownerOfSlot: readonly number[]): void {
    this.ownerOfSlot = ownerOfSlot;
    const ownerStems = new Set(fields.owner.terms);
    const stems = [...new Set(fields.name.terms)].filter((stem) => !ownerStems.has(stem)).slice(0, MAX_NAME_WORDS);
    if (this.nameLengths.length <= slot) {
      const size = Math.max(64, (slot + 1) * 2);
      const lengths = new Uint8Array(size);
      lengths.set(this.nameLengths);
      this.nameLengths = lengths;
      this.nameHits = new Uint8Array(size);
    }
    this.nameLengths[slot] = stems.length;
    this.leadStems[slot] = stems[0];
    const sides = intentSides(fields.name.words, false);
    this.nameSides[slot] = sides.length > 0 ? sides : undefined;
    this.stemsOfSlot[slot] = stems;
    for (const stem of stems) {
      const slots = this.slotsByStem.get(stem);
      if (slots === undefined) this.slotsByStem.set(stem, [slot]);
      else slots.push(slot);
    }
  }

  /** Takes the names of the tools in `slots` out; each stem's slot list is filtered once for all of them. */
  removeAll(slots: readonly number[]): void {
    const leaving = new Set<number>();
    const stems = new Set<string>();
    for (const slot of slots) {
      const slotStems = this.stemsOfSlot[slot];
      if (slotStems !== undefined) {
        leaving.add(slot);
        for (const stem of slotStems) stems.add(stem);
      }
      this.stemsOfSlot[slot] = undefined;
      this.nameLengths[slot] = 0;
      this.nameSides[slot] = undefined;
    }
    for (const stem of stems) {
      const slotsOfStem = this.slotsByStem.get(stem);
      if (slotsOfStem === undefined) continue;
      // In place, in order: the same list as taking the slots out one by one.
      let kept = 0;
      for (const slot of slotsOfStem) if (!leaving.has(slot)) slotsOfStem[kept++] = slot;
      slotsOfStem.length = kept;
      if (kept === 0) this.slotsByStem.delete(stem);
    }
  }

  /** `actionVerbFactors` over this index's owners and names. */
  private actionFactors(counted: readonly number[][], stems: ReadonlySet<string>, named: ReadonlySet<number>, admitted: Uint8Array | undefined): Map<number, number> {
    return actionVerbFactors(this.settings, counted, stems, named, this.ownerOfSlot, this.leadStems, admitted);
  }

  /**
   * Opens a query's pass; undefined when neither factor is on (every factor 1). `admitted`: the slots of the scope
   * searched (all when undefined); no other tool's name shapes a factor.
   */
  open(analyzed: AnalyzedText, query: string, admitted?: Uint8Array): NamingPass | undefined {
    const { nameWeight, ownerNamedWeight, oppositeNameWeight } = this.settings;
    if (nameWeight <= 0 && ownerNamedWeight <= 0 && oppositeNameWeight <= 0) return undefined;
    const asked = oppositeNameWeight > 0 ? intentSides(analyzed.words, true) : [];
    const querySides = new Set(asked);
    const opposite = new Set(oppositeSides(asked));
    const stems = new Set(analyzed.terms);
    const named = ownerNamedWeight > 0 ? this.serversNamed(query, stems) : new Set<number>();
    const counted: number[][] = [];
    if (nameWeight > 0) {
      for (const stem of stems) {
        const slots = this.slotsByStem.get(stem);
        if (slots === undefined) continue;
        counted.push(slots);
        for (const slot of slots) this.nameHits[slot] = (this.nameHits[slot] as number) + 1;
      }
    }
    const { nameLengths, nameHits, ownerOfSlot, nameSides } = this;
    const actions = this.actionFactors(counted, stems, named, admitted);
    return {
      bound: (1 + nameWeight) * (named.size > 0 ? 1 + ownerNamedWeight : 1) * (actions.size > 0 ? 1 + this.settings.actionVerbWeight : 1),
      factor(slot) {
        let factor = named.size > 0 && named.has(ownerOfSlot[slot] as number) ? 1 + ownerNamedWeight : 1;
        factor *= actions.get(slot) ?? 1;
        const length = nameLengths[slot] as number;
        const hits = nameHits[slot] as number;
        if (hits > 0 && length > 0) {
          const share = Math.min(1, hits / length);
          // Squared: a name the query covers whole counts most, one it shares a word with counts little.
          factor *= 1 + nameWeight * share * share;
        }
        const sides = nameSides[slot];
        // A name that asks the opposite of the query (and not also what it asks).
        if (opposite.size > 0 && sides !== undefined && sides.some((side) => opposite.has(side)) && !sides.some((side) => querySides.has(side))) factor *= 1 - oppositeNameWeight;
        return factor;
      },
      close() {
        for (const slots of counted) for (const slot of slots) nameHits[slot] = 0;
      },
    };
  }
}

/**
 * The action-verb factors of one query (`actionVerbWeight`): among one server's tools whose names share a query
 * word (`counted`: per query stem, the slots whose name has it), when one's name leads with a query word and
 * another's leads with an action verb the query does not ask (nor a relative of one it asks), the first is lifted
 * and the second lowered: "firecrawl start crawl" wants `firecrawl_crawl`, not `firecrawl_check_crawl_status`.
 * With `actionVerbOnlyWhenServerNamed`, only among the tools of a server the query names.
 */
function actionVerbFactors(
  settings: RankingSettings,
  counted: readonly number[][],
  stems: ReadonlySet<string>,
  named: ReadonlySet<number>,
  ownerOfSlot: readonly number[],
  leadStems: ReadonlyArray<string | undefined>,
  admitted: Uint8Array | undefined,
): Map<number, number> {
  const factors = new Map<number, number>();
  const weight = settings.actionVerbWeight;
  if (weight <= 0 || counted.length === 0) return factors;
  // Only a request that names a specific action ("start", "delete", "send"): "get" or "find" names none.
  if (![...stems].some((stem) => ACTION_VERB_STEMS.has(stem) && !GENERIC_VERB_STEMS.has(stem))) return factors;
  const asked = new Set(stems);
  for (const stem of stems) for (const relative of relatedTerms(stem)) asked.add(relative);
  const byOwner = new Map<number, Set<number>>();
  for (const slots of counted) {
    for (const slot of slots) {
      // Only the tools of the scope searched: a refused tool's name never shapes an admitted tool's score.
      if (admitted !== undefined && !isAdmittedSlot(admitted, slot)) continue;
      const owner = ownerOfSlot[slot] as number;
      if (settings.actionVerbOnlyWhenServerNamed && !named.has(owner)) continue;
      let set = byOwner.get(owner);
      if (set === undefined) byOwner.set(owner, (set = new Set()));
      set.add(slot);
    }
  }
  for (const slots of byOwner.values()) {
    if (slots.size < 2) continue;
    const leading: number[] = [];
    const unasked: number[] = [];
    for (const slot of slots) {
      const lead = leadStems[slot];
      if (lead === undefined) continue;
      if (stems.has(lead)) leading.push(slot);
      else if (ACTION_VERB_STEMS.has(lead) && !asked.has(lead)) unasked.push(slot);
    }
    if (leading.length === 0 || unasked.length === 0) continue;
    for (const slot of leading) factors.set(slot, 1 + weight);
    for (const slot of unasked) factors.set(slot, 1 - weight);
  }
  return factors;
}

/** Verbs that ask to look at something without naming which action: they never make `actionVerbFactors` apply. */
export const GENERIC_VERB_STEMS: ReadonlySet<string> = new Set(
  ['get', 'find', 'search', 'list', 'show', 'read', 'fetch', 'retrieve', 'lookup', 'query', 'view', 'display', 'obtain', 'load', 'browse', 'enumerate', 'locate', 'seek', 'discover']
    .map((word) => normalizeTerm(word))
    .filter((stem): stem is string => stem !== undefined),
);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Words before a server's name that say it is the server: "in Sentry", "on slack", "via github", "my notion". */
const BEFORE_SERVER = /(?:^|[\s(])(?:in|on|via|using|with|from|through|to|into|use|my|our|the|at)\s+$/i;
/** Words after a server's name that say it is the server: "playwright:", "figma server", "notion api". */
const AFTER_SERVER = /^\s*(?::|server\b|mcp\b|tools?\b|api\b)/i;

/** Whether `query` writes a server's name (its pattern) as a server's (see `NameEvidence.serversNamed`). */
function writtenAsServer(query: string, written: RegExp): boolean {
  written.lastIndex = 0;
  for (const match of query.matchAll(written)) {
    const before = query.slice(0, match.index);
    const after = query.slice(match.index + match[0].length);
    if (before.trim() === '' || BEFORE_SERVER.test(before) || AFTER_SERVER.test(after)) return true;
    // Capitalised inside a sentence ("look it up in Sentry", "file a GitHub issue"): a name, not a word.
    if (/^\p{Lu}/u.test(match[0]) && !/[.!?]\s*$/.test(before)) return true;
  }
  return false;
}
