// An embedding cache kept in one JSON-lines file (key, base64 float32 vector): how a host can persist tool
// vectors so that a restart embeds nothing again. The bench uses it so the model runs once per tool.
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { EmbeddingCache } from '../src/index.js';

export interface FileEmbeddingCache extends EmbeddingCache {
  /** Appends the vectors set since the last flush. */
  flush(): void;
  readonly size: number;
}

export function openFileEmbeddingCache(file: string): FileEmbeddingCache {
  const vectors = new Map<string, Float32Array>();
  if (existsSync(file)) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const { key, vector } = JSON.parse(line) as { key: string; vector: string };
      const bytes = Buffer.from(vector, 'base64');
      vectors.set(key, new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4));
    }
  }
  let unsaved: string[] = [];
  return {
    get size() {
      return vectors.size;
    },
    get: (key) => vectors.get(key),
    set(key, vector) {
      if (!vectors.has(key)) unsaved.push(key);
      vectors.set(key, Float32Array.from(vector));
    },
    flush() {
      if (unsaved.length === 0) return;
      mkdirSync(dirname(file), { recursive: true });
      const lines = unsaved.map((key) => {
        const vector = vectors.get(key) as Float32Array;
        return JSON.stringify({ key, vector: Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64') });
      });
      appendFileSync(file, `${lines.join('\n')}\n`);
      unsaved = [];
    },
  };
}
