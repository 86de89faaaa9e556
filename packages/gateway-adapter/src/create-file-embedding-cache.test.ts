import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileEmbeddingCache } from './create-file-embedding-cache.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'embedding-cache-'));
  dirs.push(dir);
  return dir;
}
const vector = (...values: number[]) => Float32Array.from(values);
const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter((line) => line !== '');
function capture() {
  const logged: Array<{ msg: string; skipped?: number }> = [];
  return { logged, logger: pino({ level: 'warn' }, { write: (line: string) => logged.push(JSON.parse(line) as { msg: string }) }) };
}

describe('createFileEmbeddingCache', () => {
  it('keeps vectors across instances on the same folder, written after each batch of sets', async () => {
    const dir = tempDir();
    const first = createFileEmbeddingCache({ dir });
    first.set('m:a', vector(1, 2));
    first.set('m:b', vector(0.5, -1));
    await Promise.resolve();
    expect(lines(first.file)).toHaveLength(2);
    const second = createFileEmbeddingCache({ dir });
    expect(second.size).toBe(2);
    expect(second.get('m:a')).toEqual(vector(1, 2));
    expect(second.get('m:b')).toEqual(vector(0.5, -1));
    expect(second.get('m:c')).toBeUndefined();
  });

  it('skips corrupt and truncated lines with a warning, and rewrites the file without them', () => {
    const dir = tempDir();
    const first = createFileEmbeddingCache({ dir });
    first.set('m:a', vector(1, 2));
    first.flush();
    appendFileSync(first.file, 'not json\n{"k":"m:x","v":"AAA"}\n{"k":"m:nan","v":"AADAfw=="}\n{"k":"m:b","v":"AACAP');
    const { logged, logger } = capture();
    const second = createFileEmbeddingCache({ dir, logger });
    expect(second.size).toBe(1);
    expect(logged).toContainEqual(expect.objectContaining({ msg: 'embedding cache lines unreadable; skipped', skipped: 4 }));
    second.flush();
    expect(lines(second.file)).toHaveLength(1);
    expect(createFileEmbeddingCache({ dir }).get('m:a')).toEqual(vector(1, 2));
  });

  it('holds at most maxEntries vectors, dropping the least recently used, and bounds the file', () => {
    const dir = tempDir();
    const cache = createFileEmbeddingCache({ dir, maxEntries: 3 });
    cache.set('m:1', vector(1));
    cache.set('m:2', vector(2));
    cache.set('m:3', vector(3));
    cache.get('m:1');
    cache.set('m:4', vector(4));
    expect(cache.size).toBe(3);
    expect(cache.get('m:2')).toBeUndefined();
    for (let i = 5; i < 20; i += 1) {
      cache.set(`m:${i}`, vector(i));
      cache.flush();
    }
    expect(lines(cache.file).length).toBeLessThanOrEqual(3 * 1.5);
    const reopened = createFileEmbeddingCache({ dir, maxEntries: 3 });
    expect([17, 18, 19].map((i) => reopened.get(`m:${i}`))).toEqual([vector(17), vector(18), vector(19)]);
  });

  it('keeps working in memory, with a warning, when the folder cannot be made', () => {
    const parent = tempDir();
    // A file where the folder should go: no folder can be made under it, whoever runs the test.
    writeFileSync(join(parent, 'blocker'), '');
    const { logged, logger } = capture();
    const cache = createFileEmbeddingCache({ dir: join(parent, 'blocker', 'cache'), logger });
    cache.set('m:a', vector(1));
    cache.flush();
    expect(cache.get('m:a')).toEqual(vector(1));
    expect(logged.map((entry) => entry.msg)).toContain('embedding cache not written');
  });

  it('starts empty when the file is not a cache at all', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'embeddings-v1.jsonl'), Buffer.from([0xff, 0x00, 0x13, 0x37]));
    expect(createFileEmbeddingCache({ dir }).size).toBe(0);
  });

  it('rejects a missing folder or a bad maxEntries with invalid_options', () => {
    expect(() => createFileEmbeddingCache({ dir: '' })).toThrow(expect.objectContaining({ code: 'invalid_options', path: 'dir' }));
    expect(() => createFileEmbeddingCache({ dir: tempDir(), maxEntries: 0 })).toThrow(expect.objectContaining({ code: 'invalid_options', path: 'maxEntries' }));
  });
});
