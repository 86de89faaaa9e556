// The text an embedder is given for a tool: its name as words, its title and the start of its description.
import type { ToolDescriptor } from '../types.js';
import { splitWords } from './tokenize-text.js';

/** Description characters embedded; past this a long description adds little and costs embedder time. */
const MAX_EMBEDDED_DESCRIPTION = 1_000;

/** "read_text_file (Read text file): Read the complete contents of a file ..." */
export function toolEmbeddingText(tool: ToolDescriptor): string {
  const name = splitWords(tool.name).join(' ').toLowerCase();
  const title = tool.title === undefined || tool.title.trim() === '' ? '' : ` (${tool.title.trim()})`;
  const description = tool.description.replace(/\s+/g, ' ').trim().slice(0, MAX_EMBEDDED_DESCRIPTION);
  return description === '' ? `${name}${title}` : `${name}${title}: ${description}`;
}
