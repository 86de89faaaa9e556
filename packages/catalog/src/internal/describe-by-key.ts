// describeByKey: `describe` of a reader. A visible tool by exact id, or by its name (as written, or else written
// another way) when one visible tool has it; otherwise ambiguous or unknown with suggestions, all within the
// reader's scope.
import { sanitizeText } from '../sanitize-text.js';
import type { DescribeResult, ToolDescriptor } from '../types.js';
import { findSimilarIds } from './find-similar-ids.js';
import type { ReaderContext } from './reader-context.js';
import { searchScoped } from './search-scoped.js';

/** Describes the tool `idOrName` names in the reader's scope, or says why not with up to 3 suggestions. */
export function describeByKey(context: ReaderContext, idOrName: string): DescribeResult {
  const { parts } = context;
  const key = typeof idOrName === 'string' ? idOrName.trim() : '';
  if (context.visible(key)) return { found: true, tool: parts.hits.describe(parts.store.get(key) as ToolDescriptor) };
  const exact = context.namedIds(key);
  // A name written another way (case, separators, qualified by its server) when no tool has it as written.
  const named = exact.length > 0 || /\s/.test(key) ? exact : context.looselyNamedIds(key);
  if (named.length === 1) return { found: true, tool: parts.hits.describe(parts.store.get(named[0] as string) as ToolDescriptor) };
  if (named.length > 1) {
    return {
      found: false,
      reason: 'ambiguous',
      message: `"${sanitizeText(key, { maxLength: 140 })}" names ${named.length} tools; describe one by its exact id.`,
      suggestions: named,
    };
  }
  const suggestions = findSimilarIds(key, context.scope.tools(), 3);
  for (const hit of key === '' ? [] : searchScoped(context, key, { limit: 3 })) {
    if (suggestions.length >= 3) break;
    if (!suggestions.includes(hit.id)) suggestions.push(hit.id);
  }
  return {
    found: false,
    reason: 'unknown',
    message: `No tool "${sanitizeText(key, { maxLength: 140 })}" in the catalog${suggestions.length > 0 ? `; did you mean ${suggestions.join(', ')}?` : '.'}`,
    suggestions,
  };
}
