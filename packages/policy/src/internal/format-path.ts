// Dotted config paths for error messages and verdicts: `agents.main.deny[2]`, `agents["my agent"]`.

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Formats path segments as `a.b[0]["c d"]`. */
export function formatPath(segments: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (typeof segment === 'string' && IDENTIFIER.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out === '' ? '(root)' : out;
}
