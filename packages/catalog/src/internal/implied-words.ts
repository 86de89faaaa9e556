// impliedWords: what a request says by how it writes a thing rather than by a word. A file name ("read
// config.yaml", "look at logo.jpg") asks about a file, "#42" is an issue or pull request number, and "how many" or
// "how often" asks for a count, though the request may never say "file", "issue" or "count". The query reads
// those words next to the thing.

import { WORD_CHARS } from './tokenize-text.js';

/** What the rules below read as part of a word: the analyser's word characters, and `_` (names use it). */
const W = `${WORD_CHARS}_`;

/**
 * Extensions common enough in requests to read `name.ext` as a file's name; the media kinds a tool names them by.
 * Not `.js` ("Next.js" and "Node.js" are projects far more often than files in a request), and no one-letter
 * extension ("Washington D.C.").
 */
const KIND_OF_EXTENSION: Readonly<Record<string, string>> = {
  ...Object.fromEntries(['txt', 'md', 'json', 'yaml', 'yml', 'csv', 'tsv', 'log', 'xml', 'toml', 'ini', 'conf', 'cfg', 'env', 'mjs', 'ts', 'tsx', 'jsx', 'py', 'rb', 'go', 'rs', 'java', 'cpp', 'sh', 'sql', 'html', 'css', 'pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'zip', 'tar', 'gz', 'lock'].map((ext) => [ext, ''])),
  ...Object.fromEntries(['png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'bmp', 'ico', 'tiff'].map((ext) => [ext, 'image'])),
  ...Object.fromEntries(['mp3', 'wav', 'ogg', 'flac', 'm4a'].map((ext) => [ext, 'audio'])),
  ...Object.fromEntries(['mp4', 'mov', 'webm', 'avi', 'mkv'].map((ext) => [ext, 'video'])),
};

/**
 * `name.ext` (a path's last part too, `archive.tar.gz` whole): parts of letters, digits, `_` or `-` joined by dots,
 * the last one the extension; a sentence's full stop may follow.
 */
const FILE_NAME = new RegExp(String.raw`(?<![${W}.])[${W}-]+(?:\.[${W}-]+)*\.([A-Za-z0-9]{1,5})(?![${W}]|\.[${W}])`, 'gu');
/** `#42`: an issue or pull request number (not `&#42;`, not part of a word). */
const ISSUE_NUMBER = new RegExp(String.raw`(?<![${W}&])#\d{1,7}(?![${W}])`, 'gu');
/**
 * A question whose answer is a number of things or of times ("how many people signed up", "how often did it
 * fail"): the expected answer type of question answering, which a tool names "count". Not "how much" (an amount:
 * money, time, memory) and not "number of" (as often a phone or page number as a count).
 */
const COUNT_QUESTION = new RegExp(String.raw`(?<![${W}])how\s+(?:many|often)(?![${W}])`, 'giu');
/** A request that already says what its number is ("issue #17", "PR #3") is left as it is. */
const SAYS_WHAT_NUMBER = /\b(issues?|pull|prs?|tickets?|bugs?|merge|mr)\b/i;

/**
 * `query` with the words its file names, numbers and questions imply after each: "file" (and the media kind of an
 * image, a sound or a video: "logo.jpg" reads "logo.jpg image file") after a file name of a known extension,
 * "issue pull request" after `#42` unless the query says what it is, "count" after "how many" and "how often".
 * The query itself when it has none.
 */
export function impliedWords(query: string): string {
  let out = query.replace(COUNT_QUESTION, '$& count');
  if (out.includes('#') && !SAYS_WHAT_NUMBER.test(out)) out = out.replace(ISSUE_NUMBER, '$& issue pull request');
  if (!out.includes('.')) return out;
  out = out.replace(FILE_NAME, (name: string, extension: string) => {
    const kind = KIND_OF_EXTENSION[extension.toLowerCase()];
    if (kind === undefined) return name;
    return kind === '' ? `${name} file` : `${name} ${kind} file`;
  });
  return out;
}
