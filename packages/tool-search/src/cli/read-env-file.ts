// Cursor's per-server `envFile`: a dotenv file whose variables the server gets (its `env` wins where both name one).
import { readFileSync } from 'node:fs';

const LINE = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/;

/** The variables of a dotenv file, or why it cannot be used (unreadable, or a line that is not `NAME=value`). */
export function readEnvFile(path: string): { ok: true; variables: Record<string, string> } | { ok: false; reason: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, reason: code === 'ENOENT' ? `${path} does not exist` : `${path} cannot be read (${code ?? (error as Error).message})` };
  }
  const variables: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = LINE.exec(line);
    if (match === null) return { ok: false, reason: `${path}:${index + 1}: expected NAME=value, got ${JSON.stringify(line.slice(0, 40))}` };
    variables[match[1]!] = unquote(match[2]!);
  }
  return { ok: true, variables };
}

function unquote(value: string): string {
  const quote = value[0];
  if ((quote === '"' || quote === "'") && value.length >= 2 && value.endsWith(quote)) {
    const inner = value.slice(1, -1);
    return quote === '"' ? inner.replace(/\\n/g, '\n').replace(/\\"/g, '"') : inner;
  }
  // An unquoted value ends at a comment.
  return value.replace(/\s+#.*$/, '');
}
