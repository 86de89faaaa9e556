// NameEvidence: what a query's words say about tools' names and servers, as a score factor. A tool whose name the
// query covers whole ("read file" and `read_file`) counts more than one that shares a word with it
// (`read_multiple_files`); a query that names a server ("notion list users") lifts that server's tools; a name
// that asks the opposite of the query ("run a command" and `force_terminate`) counts less. Kept
// beside the postings, per slot: name words are looked up through their own small postings, so the cost follows
// the query's words, not the number of tools a query touches.
import type { IndexedField, RankingSettings } from './ranking-settings.js';
import { intentSides, oppositeSides } from './intent-table.js';
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
    const sides = intentSides(fields.name.words, false);
    this.nameSides[slot] = sides.length > 0 ? sides : undefined;
    this.stemsOfSlot[slot] = stems;
    for (const stem of stems) {
      const slots = this.slotsByStem.get(stem);
      if (slots === undefined) this.slotsByStem.set(stem, [slot]);
      else slots.push(slot);
    }
  }

  remove(slot: number): void {
    for (const stem of this.stemsOfSlot[slot] ?? []) {
      const slots = this.slotsByStem.get(stem);
      if (slots === undefined) continue;
      const at = slots.indexOf(slot);
      if (at >= 0) slots.splice(at, 1);
      if (slots.length === 0) this.slotsByStem.delete(stem);
    }
    this.stemsOfSlot[slot] = undefined;
    this.nameLengths[slot] = 0;
    this.nameSides[slot] = undefined;
  }

  /** Opens a query's pass; undefined when neither factor is on (every factor 1). */
  open(analyzed: AnalyzedText, query: string): NamingPass | undefined {
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
    return {
      bound: (1 + nameWeight) * (named.size > 0 ? 1 + ownerNamedWeight : 1),
      factor(slot) {
        let factor = named.size > 0 && named.has(ownerOfSlot[slot] as number) ? 1 + ownerNamedWeight : 1;
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
