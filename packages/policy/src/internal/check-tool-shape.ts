// A cheap structural check of a tool, run for every tool `filter` sees (zod would be too slow for
// 10,000 tools per run). A malformed tool is denied, never guessed at.
import type { PolicyTool } from '../types';
import { POLICY_SOURCES } from './pattern-syntax';
import { checkAnnotationsShape } from './tool-hints';

const SOURCES: ReadonlySet<unknown> = new Set(POLICY_SOURCES);

function isField(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && !value.includes('\u0000');
}

// `id === `${source}:${owner}:${name}`` without building the string: this runs for every tool on every run.
function isIdOf(id: unknown, source: string, owner: string, name: string): boolean {
  if (typeof id !== 'string' || id.length !== source.length + owner.length + name.length + 2) return false;
  const ownerAt = source.length + 1;
  const nameAt = ownerAt + owner.length + 1;
  return (
    id.startsWith(source) &&
    id.charCodeAt(source.length) === 58 &&
    id.startsWith(owner, ownerAt) &&
    id.charCodeAt(nameAt - 1) === 58 &&
    id.startsWith(name, nameAt)
  );
}

/** Why the tool is malformed, or `undefined` when it is well formed. */
export function checkToolShape(tool: PolicyTool): string | undefined {
  if (typeof tool !== 'object' || tool === null) return 'the tool is not an object';
  const { id, name, source, owner, ownerOnly, trusted, annotations } = tool;
  if (!isField(name) || !isField(owner)) return 'name and owner must be non-empty strings';
  if (!SOURCES.has(source)) return `source must be one of ${POLICY_SOURCES.join(', ')}`;
  if (ownerOnly !== undefined && typeof ownerOnly !== 'boolean') return 'ownerOnly must be a boolean when present';
  if (trusted !== undefined && typeof trusted !== 'boolean') return 'trusted must be a boolean when present';
  if (!isIdOf(id, source, owner, name)) return "the id does not equal '<source>:<owner>:<name>'";
  return annotations === undefined ? undefined : checkAnnotationsShape(annotations);
}
