// Config paths for error messages and verdicts, in the one syntax every Tool Search error uses (zod's own
// `toDotPath`): `agents.main.deny[2]`, `agents["my agent"]`.
import { z } from 'zod';

/** Formats path segments as `a.b[0]["c d"]`; the empty path is `(root)`. */
export function formatPath(segments: readonly PropertyKey[]): string {
  const out = z.core.toDotPath(segments);
  return out === '' ? '(root)' : out;
}
