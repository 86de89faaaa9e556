import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { benchFile, readBenchText, readJsonLines } from './index.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bench-data-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('benchFile', () => {
  it('is the plain file when it exists, the .gz one when only that does, undefined when neither does', () => {
    writeFileSync(join(dir, 'tools.jsonl.gz'), gzipSync('{}\n'));
    expect(benchFile(dir, 'tools.jsonl')).toBe(join(dir, 'tools.jsonl.gz'));
    writeFileSync(join(dir, 'tools.jsonl'), '{}\n');
    expect(benchFile(dir, 'tools.jsonl')).toBe(join(dir, 'tools.jsonl'));
    expect(benchFile(dir, 'queries.jsonl')).toBeUndefined();
  });
});

describe('readBenchText', () => {
  it('gunzips a .gz file and reads a plain one as it is', () => {
    writeFileSync(join(dir, 'a.jsonl.gz'), gzipSync('zipped ü\n'));
    writeFileSync(join(dir, 'a.jsonl'), 'plain ü\n');
    expect(readBenchText(join(dir, 'a.jsonl.gz'))).toBe('zipped ü\n');
    expect(readBenchText(join(dir, 'a.jsonl'))).toBe('plain ü\n');
  });
});

describe('readJsonLines', () => {
  it('parses each line of a plain or gzipped file, skipping blank lines', () => {
    const text = '{"id":"a:1"}\n\n  \n{"id":"b:2","n":[1,2]}\n';
    writeFileSync(join(dir, 'tools.jsonl'), text);
    writeFileSync(join(dir, 'tools.jsonl.gz'), gzipSync(text));
    const expected = [{ id: 'a:1' }, { id: 'b:2', n: [1, 2] }];
    expect(readJsonLines(join(dir, 'tools.jsonl'))).toEqual(expected);
    expect(readJsonLines(join(dir, 'tools.jsonl.gz'))).toEqual(expected);
  });

  it('names the file and the line when a line is not JSON', () => {
    const file = join(dir, 'queries.jsonl');
    writeFileSync(file, '{"qid":"1"}\n{"qid":\n');
    expect(() => readJsonLines(file)).toThrow(`${file}:2 is not JSON`);
  });
});
