import { z } from 'zod';

/** `root` and a zod issue path joined in the one error-path syntax: `sources.mcp[0].args[1]`, `toolSearch.mode`. */
function joinPath(root: string, segments: readonly PropertyKey[]): string {
  const rest = z.core.toDotPath(segments);
  if (rest === '') return root;
  if (root === '' || rest.startsWith('[')) return `${root}${rest}`;
  return `${root}.${rest}`;
}

/** Renders a ZodError as one line per issue, each with its path, so the caller sees where the problem is. */
export function formatZodError(error: z.ZodError, root: string): { message: string; path: string } {
  const lines = error.issues.map((issue) => {
    const path = joinPath(root, issue.path);
    return { path, text: `${path}: ${issue.message}` };
  });
  return { message: lines.map((line) => line.text).join('; '), path: lines[0]?.path ?? root };
}
