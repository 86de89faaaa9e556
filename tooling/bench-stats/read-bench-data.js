// The one reader of the benchmark data files (`tools.jsonl`, `queries.jsonl`, `model-queries.jsonl`, each plain or
// gzipped) that every `pnpm bench:*` script uses.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/**
 * `<dir>/<base>` or, when only that exists, `<dir>/<base>.gz`; undefined when neither does.
 * @param {string} dir
 * @param {string} base
 * @returns {string | undefined}
 */
export function benchFile(dir, base) {
  return [join(dir, base), join(dir, `${base}.gz`)].find((file) => existsSync(file));
}

/**
 * The text of a benchmark file, gunzipped when its name ends in `.gz`.
 * @param {string} file
 * @returns {string}
 */
export function readBenchText(file) {
  const bytes = readFileSync(file);
  return (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
}

/**
 * The parsed lines of a JSONL benchmark file (plain or `.gz`), blank lines skipped. A line that is not JSON throws,
 * naming the file and the line number.
 * @template T
 * @param {string} file
 * @returns {T[]}
 */
export function readJsonLines(file) {
  /** @type {T[]} */
  const rows = [];
  for (const [index, line] of readBenchText(file).split('\n').entries()) {
    if (line.trim() === '') continue;
    try {
      rows.push(JSON.parse(line));
    } catch (error) {
      throw new Error(`${file}:${index + 1} is not JSON (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  return rows;
}
