import type { z } from 'zod';

/** Renders a ZodError as one line per issue, each with its path, so the caller sees where the problem is. */
export function formatZodError(error: z.ZodError, root: string): { message: string; path: string } {
  const lines = error.issues.map((issue) => {
    const path = [root, ...issue.path.map((segment) => (typeof segment === 'number' ? `[${segment}]` : String(segment)))]
      .join('.')
      .replace(/\.\[/g, '[');
    return { path, text: `${path}: ${issue.message}` };
  });
  return { message: lines.map((line) => line.text).join('; '), path: lines[0]?.path ?? root };
}
