// Tool vectors by index slot, unit length, for the optional embedder: the nearest tools to a query vector,
// over every tool or only the ones an index scope admits.

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

/** Unit vectors by slot; cosine similarity is their dot product. */
export class VectorIndex {
  private readonly vectors: Array<Float32Array | undefined> = [];
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
    return this.vectors[slot];
  }

  has(slot: number): boolean {
    return this.vectors[slot] !== undefined;
  }

  set(slot: number, vector: Float32Array): void {
    if (this.vectors[slot] === undefined) this.count += 1;
    this.vectors[slot] = vector;
    this.length = vector.length;
  }

  clear(slot: number): void {
    if (this.vectors[slot] === undefined) return;
    this.vectors[slot] = undefined;
    this.count -= 1;
  }

  /**
   * The `limit` slots most similar to `query` (a unit vector), best first, ties by slot id string order given by
   * `idOf`, only slots with a vector and (with `admitted`) admitted ones.
   */
  nearest(query: Float32Array, limit: number, idOf: (slot: number) => string, admitted?: Uint8Array): NearestSlot[] {
    const top: NearestSlot[] = [];
    const dimensions = query.length;
    for (let slot = 0; slot < this.vectors.length; slot++) {
      const vector = this.vectors[slot];
      if (vector === undefined || vector.length !== dimensions) continue;
      if (admitted !== undefined && admitted[slot] !== 1) continue;
      let dot = 0;
      for (let i = 0; i < dimensions; i++) dot += (vector[i] as number) * (query[i] as number);
      // Rounded so that sums in another order (another catalog with the same tools) rank the same.
      const similarity = Math.round(dot * 1e6) / 1e6;
      if (top.length === limit) {
        const last = top[limit - 1] as NearestSlot;
        if (similarity < last.similarity || (similarity === last.similarity && idOf(slot) > idOf(last.slot))) continue;
      }
      let at = top.length;
      while (at > 0) {
        const before = top[at - 1] as NearestSlot;
        if (before.similarity > similarity || (before.similarity === similarity && idOf(before.slot) < idOf(slot))) break;
        at--;
      }
      top.splice(at, 0, { slot, similarity });
      if (top.length > limit) top.pop();
    }
    return top;
  }
}
