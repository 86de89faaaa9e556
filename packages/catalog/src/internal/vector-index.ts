// Tool vectors by index slot, unit length, for the optional embedder: the nearest tools to a query vector,
// over every tool or only the ones an index scope admits. One contiguous Float32Array (slot × dimensions), so
// the scan is a tight loop over typed memory.
import { isAdmittedSlot } from './index-scope.js';

/** One scored slot from `nearest`. */
export interface NearestSlot {
  slot: number;
  similarity: number;
}

/** Scales a vector to unit length (a zero vector stays zero), as a Float32Array. */
export function unitVector(vector: ArrayLike<number>): Float32Array {
  const out = new Float32Array(vector.length);
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += (vector[i] as number) * (vector[i] as number);
  norm = Math.sqrt(norm);
  if (norm === 0) return out;
  for (let i = 0; i < vector.length; i++) out[i] = (vector[i] as number) / norm;
  return out;
}

/** Unit vectors by slot; cosine similarity is their dot product. All vectors have one length. */
export class VectorIndex {
  private matrix = new Float32Array(0);
  /** 1 where a slot has a vector. */
  private present = new Uint8Array(0);
  private count = 0;
  private length = 0;

  get size(): number {
    return this.count;
  }

  /** The length of the vectors held (undefined while there are none). */
  get dimensions(): number | undefined {
    return this.count === 0 ? undefined : this.length;
  }

  get(slot: number): Float32Array | undefined {
    if (this.present[slot] !== 1) return undefined;
    return this.matrix.slice(slot * this.length, (slot + 1) * this.length);
  }

  /** Stores a vector; its length must match the others' (the caller checks). */
  set(slot: number, vector: Float32Array): void {
    if (this.count === 0 && this.length !== vector.length) {
      this.length = vector.length;
      this.matrix = new Float32Array(this.present.length * vector.length);
    }
    if (slot >= this.present.length) this.grow(slot + 1);
    this.matrix.set(vector, slot * this.length);
    if (this.present[slot] !== 1) this.count += 1;
    this.present[slot] = 1;
  }

  clear(slot: number): void {
    if (this.present[slot] !== 1) return;
    this.present[slot] = 0;
    this.count -= 1;
  }

  /**
   * The `limit` slots most similar to `query` (a unit vector), best first, ties by the id `idOf` gives, only
   * slots with a vector and (with `admitted`, a scope's bytes) admitted ones (`isAdmittedSlot`).
   */
  nearest(query: Float32Array, limit: number, idOf: (slot: number) => string, admitted?: Uint8Array): NearestSlot[] {
    const top: NearestSlot[] = [];
    const dimensions = this.length;
    if (query.length !== dimensions || limit < 1) return top;
    const matrix = this.matrix;
    const present = this.present;
    let worst = Number.NEGATIVE_INFINITY;
    for (let slot = 0; slot < present.length; slot++) {
      if (present[slot] !== 1 || (admitted !== undefined && !isAdmittedSlot(admitted, slot))) continue;
      const dot = dotAt(matrix, slot * dimensions, query, dimensions);
      // Rounded so that sums in another order (another catalog with the same tools) rank the same.
      const similarity = Math.round(dot * 1e6) / 1e6;
      if (top.length === limit && similarity < worst) continue;
      const candidate = { slot, similarity };
      let at = top.length;
      while (at > 0 && !precedes(top[at - 1] as NearestSlot, candidate, idOf)) at--;
      if (at === limit) continue;
      top.splice(at, 0, candidate);
      if (top.length > limit) top.pop();
      worst = (top[top.length - 1] as NearestSlot).similarity;
    }
    return top;
  }

  private grow(capacity: number): void {
    const size = Math.max(capacity, this.present.length * 2, 64);
    const present = new Uint8Array(size);
    present.set(this.present);
    this.present = present;
    const matrix = new Float32Array(size * this.length);
    matrix.set(this.matrix);
    this.matrix = matrix;
  }
}

/** The dot product of `query` with the row starting at `base`, four lanes at a time (about twice the speed). */
function dotAt(matrix: Float32Array, base: number, query: Float32Array, dimensions: number): number {
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  let i = 0;
  for (; i + 3 < dimensions; i += 4) {
    a += (matrix[base + i] as number) * (query[i] as number);
    b += (matrix[base + i + 1] as number) * (query[i + 1] as number);
    c += (matrix[base + i + 2] as number) * (query[i + 2] as number);
    d += (matrix[base + i + 3] as number) * (query[i + 3] as number);
  }
  for (; i < dimensions; i++) a += (matrix[base + i] as number) * (query[i] as number);
  return a + b + c + d;
}

/** Whether `a` ranks before `b`: higher similarity, then the smaller id. */
function precedes(a: NearestSlot, b: NearestSlot, idOf: (slot: number) => string): boolean {
  return a.similarity > b.similarity || (a.similarity === b.similarity && idOf(a.slot) < idOf(b.slot));
}
