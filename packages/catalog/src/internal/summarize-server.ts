// A server's one-line summary for the server map, written for a reader: what the server says of itself (its
// description, else the first sentence of its instructions that says what it does, else its title), and failing
// those its most distinctive tool names. Never stems or a list of frequent words ("tools to git, repository,
// pull, hub"), never audience boilerplate ("These instructions are written for an LLM") or a placeholder
// (`<server-cwd>`).
import { sanitizeText } from '../sanitize-text.js';
import type { ToolDescriptor } from '../types.js';
import { splitWords } from './tokenize-text.js';

/** Longest summary line, in characters. */
export const MAX_SERVER_SUMMARY_LENGTH = 120;
/**
 * Tool names in a summary made of them, and its longest line: the map lists the server's tool names after it, so
 * the summary names only the few that say most, and leaves the bytes to the list.
 */
const TOOL_NAMES_IN_SUMMARY = 3;
const TOOL_NAMES_SUMMARY_LENGTH = 90;
/** Characters of instructions read for a describing sentence. */
const INSTRUCTIONS_READ = 8_000;

/** What a server says of itself (MCP `serverInfo.description`, `instructions`, `serverInfo.title`). */
export interface ServerSelfDescription {
  description?: string | undefined;
  instructions?: string | undefined;
  title?: string | undefined;
}

/** `<server-cwd>`, `{placeholder}`, `${VAR}`: text a server fills in, not prose. */
const PLACEHOLDER = /<[^<>\s][^<>]{0,60}>|\$?\{[^{}]{1,60}\}/g;
const HAS_PLACEHOLDER = new RegExp(PLACEHOLDER.source);
/** Sentences about the text itself and who reads it, not about the server. */
const BOILERPLATE = [
  /^\s*audience\s*:/i,
  /\binstructions?\b[^.]*\b(written|intended|meant|addressed)\b/i,
  /\b(written|intended|meant)\s+for\s+(an?\s+)?(llm|ai|agent|model|assistant)s?\b/i,
  /^\s*follow (them|these|this)\b/i,
  /^\s*(if|when) asked about\b/i,
  /^\s*(note|important|warning|tip)\s*:/i,
];
/** A sentence that says what a server is or does (third person: "Enable X" tells the model what to do). */
const DESCRIBES = /\b(provides|offers|gives|lets|allows|enables|exposes|supports|connects|helps|serves|is an?|are an?)\b|\buse this (mcp )?server to\b/i;
/** A sentence that tells the model what to do, or when: not a description of the server. */
const DIRECTS = /^(use|enable|disable|prefer|call|do|don't|never|always|follow|check|make|run|if|when|for|before|after|avoid|remember|ensure|try|pass|set|see|only|please|first|then|to)\b/i;
/** Words a title shares with most servers' titles: a title of only these and the server's name says nothing. */
const GENERIC_TITLE_WORDS = new Set(['mcp', 'server', 'the', 'api', 'tools', 'tool', 'official', 'instructions', 'guide']);

/** One sentence of a text, and where it stands. */
interface Sentence {
  text: string;
  /** Before the first section under the text's top heading, and not in a list: the text's lead. */
  lead: boolean;
  /** It quoted code (`tool-name`, `ENV_VAR`) or held a placeholder: about a tool or a setting, or not filled in. */
  code: boolean;
}

/** The sentences of a text (placeholders, list marks and emphasis off), and its markdown headings. */
function readProse(text: string): { sentences: Sentence[]; headings: string[] } {
  const sentences: Sentence[] = [];
  const headings: string[] = [];
  let lead = true;
  let paragraph: string[] = [];
  const flush = (inList: boolean) => {
    const joined = paragraph.join(' ').replace(/\s+/g, ' ').trim();
    for (const part of joined.split(/(?<=[.!?])\s+(?=[\p{Lu}\d"'(])/u)) {
      const code = /`/.test(part) || HAS_PLACEHOLDER.test(part);
      const clean = part.replace(PLACEHOLDER, ' ').replace(/`([^`]*)`/g, '$1').replace(/\s+/g, ' ').trim();
      if (clean !== '') sentences.push({ text: clean, lead: lead && !inList, code });
    }
    paragraph = [];
  };
  for (const raw of text.slice(0, INSTRUCTIONS_READ).split('\n')) {
    const heading = /^\s*(#+)\s*(.*)$/.exec(raw);
    if (heading !== null) {
      flush(false);
      headings.push((heading[2] as string).replace(PLACEHOLDER, ' ').trim());
      // A section under the top heading ends the lead.
      if ((heading[1] as string).length > 1 || headings.length > 1) lead = false;
      continue;
    }
    const item = /^\s*(?:[-*+•]|\d+[.)])\s+/.test(raw);
    if (raw.trim() === '' || item) flush(false);
    const line = raw.replace(/^\s*(?:[-*+•]|\d+[.)])\s+/, '').trim();
    if (line === '') continue;
    paragraph.push(line.replace(/[*_]{1,3}([^*_]+)[*_]{1,3}/g, '$1'));
    if (item) flush(true);
  }
  flush(false);
  return { sentences, headings };
}

/** A line clipped to the summary length, at a word boundary, with an ellipsis when cut. */
function clip(text: string): string {
  const clean = sanitizeText(text, { maxLength: 2_000 }).replace(/\s+/g, ' ').trim();
  if (clean.length <= MAX_SERVER_SUMMARY_LENGTH) return clean;
  const cut = clean.slice(0, MAX_SERVER_SUMMARY_LENGTH - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > MAX_SERVER_SUMMARY_LENGTH / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:–—-]+$/, '')}…`;
}

const wordCount = (text: string) => splitWords(text).length;
const isBoilerplate = (sentence: string) => BOILERPLATE.some((pattern) => pattern.test(sentence));

/** A text's words, lower case, split only where there is no letter or digit ("DevTools" stays one word). */
function looseWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

/**
 * The summary a server's own words give, or '' when they say nothing of it: the first sentence of its
 * `description`; else the first sentence of its instructions that says what it does ("provides", "lets", "is a",
 * "use this server to"), else the first sentence of their lead that neither directs the model ("Use X", "If
 * asked") nor quotes code; else its title, or the instructions' first heading. Audience boilerplate and placeholders
 * are skipped, and a text that only restates the server's name ("Chrome DevTools MCP server") says nothing.
 */
export function describeServer(owner: string, self: ServerSelfDescription): string {
  const ownerKey = looseWords(owner).join('');
  /** Whether a text says more than the server's name and words every server's title has. */
  const saysMore = (text: string) => looseWords(text).some((word) => !GENERIC_TITLE_WORDS.has(word) && !ownerKey.includes(word));
  const description = readProse(self.description ?? '').sentences.find(({ text }) => wordCount(text) >= 3 && !isBoilerplate(text) && saysMore(text));
  if (description !== undefined) return clip(description.text);
  const { sentences, headings } = readProse(self.instructions ?? '');
  const usable = sentences.filter(({ text }) => wordCount(text) >= 2 && !isBoilerplate(text) && saysMore(text));
  const chosen = usable.find(({ text, code }) => !code && wordCount(text) >= 4 && DESCRIBES.test(text)) ?? usable.find(({ text, lead, code }) => lead && !code && !DIRECTS.test(text));
  if (chosen !== undefined) return clip(chosen.text);
  const title = [self.title ?? '', ...headings.slice(0, 1)].map((text) => sanitizeText(text, { maxLength: 200 }).trim()).find((text) => text !== '' && !isBoilerplate(text) && saysMore(text));
  return title === undefined ? '' : clip(title);
}

/**
 * The summary of a server that says nothing of itself: its most distinctive tool names, as written (a name's words
 * that few other servers' tool names have count most; the server's own name counts nothing), as many as fit.
 */
export function summarizeByToolNames(owner: string, tools: readonly ToolDescriptor[], serversWithWord: ReadonlyMap<string, number>, servers: number): string {
  const ownerWords = new Set(splitWords(owner).map((word) => word.toLowerCase()));
  const scored = tools.map((tool) => {
    const words = [...new Set(splitWords(tool.name).map((word) => word.toLowerCase()))].filter((word) => !ownerWords.has(word));
    const score = words.reduce((sum, word) => sum + Math.log(1 + servers / (serversWithWord.get(word) ?? 1)), 0) / Math.max(1, Math.sqrt(words.length));
    return { name: tool.name, score };
  });
  scored.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const prefix = 'Tools such as ';
  const picked: string[] = [];
  let length = prefix.length;
  for (const { name } of scored) {
    const cost = name.length + (picked.length > 0 ? 2 : 0);
    if (picked.length > 0 && length + cost > TOOL_NAMES_SUMMARY_LENGTH - 1) break;
    picked.push(name);
    length += cost;
    if (picked.length === TOOL_NAMES_IN_SUMMARY) break;
  }
  return clip(picked.length === 0 ? '' : `${prefix}${picked.join(', ')}.`);
}

/** For each lower-case word of any tool name, how many of the groups' servers have it in a tool name. */
export function countServersByNameWord(groups: ReadonlyArray<{ tools: readonly ToolDescriptor[] }>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const group of groups) {
    const words = new Set<string>();
    for (const tool of group.tools) for (const word of splitWords(tool.name)) words.add(word.toLowerCase());
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return counts;
}
