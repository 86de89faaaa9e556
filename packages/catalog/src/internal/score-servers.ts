// scoreServers: server-level evidence. Each server (owner) taken as one document of all its admitted tools and
// scored by BM25 over the admitted servers, so the tools of the server a query is about can rise together.
import type { QueryTerm } from './expand-query.js';
import { isAdmittedSlot } from './index-scope.js';
import type { Posting } from './postings.js';

/** The slots' side of the index that server scoring reads. */
export interface ServerSlots {
  /** Per slot: its id, undefined when free. */
  ids: ReadonlyArray<string | undefined>;
  /** Per slot: its owner's number. */
  ownerOfSlot: readonly number[];
  ownerCount: number;
  documentLengths: readonly number[];
  posting(term: string): Posting | undefined;
}

/**
 * Per owner number: the BM25 score of the query against the owner's admitted tools taken as one document (term
 * frequencies and lengths summed over them; document frequencies and the average length over the admitted
 * owners), divided by the best owner's (so 0..1).
 */
export function scoreServers(slots: ServerSlots, queryTerms: readonly QueryTerm[], admitted: Uint8Array | undefined, k1: number, b: number): Float64Array {
  const owners = slots.ownerCount;
  const lengths = new Float64Array(owners);
  const present = new Uint8Array(owners);
  let ownerCount = 0;
  let lengthSum = 0;
  for (let slot = 0; slot < slots.ids.length; slot++) {
    if (slots.ids[slot] === undefined || (admitted !== undefined && !isAdmittedSlot(admitted, slot))) continue;
    const owner = slots.ownerOfSlot[slot] as number;
    if (present[owner] === 0) {
      present[owner] = 1;
      ownerCount += 1;
    }
    const length = slots.documentLengths[slot] as number;
    lengths[owner] = (lengths[owner] as number) + length;
    lengthSum += length;
  }
  const out = new Float64Array(owners);
  if (ownerCount === 0) return out;
  const average = lengthSum / ownerCount;
  const frequencies = new Float64Array(owners);
  const seen: number[] = [];
  for (const { term, weight, bit, posting: own } of queryTerms) {
    if (bit < 0) continue;
    const posting = own ?? slots.posting(term);
    if (posting === undefined) continue;
    for (let i = 0; i < posting.length; i += 2) {
      const slot = posting[i] as number;
      if (admitted !== undefined && !isAdmittedSlot(admitted, slot)) continue;
      const owner = slots.ownerOfSlot[slot] as number;
      if (frequencies[owner] === 0) seen.push(owner);
      frequencies[owner] = (frequencies[owner] as number) + (posting[i + 1] as number);
    }
    const idf = Math.log(1 + (ownerCount - seen.length + 0.5) / (seen.length + 0.5));
    for (const owner of seen) {
      const tf = frequencies[owner] as number;
      const saturation = average > 0 ? k1 * (1 - b + (b * (lengths[owner] as number)) / average) : k1;
      out[owner] = (out[owner] as number) + (weight * idf * tf * (k1 + 1)) / (tf + saturation);
      frequencies[owner] = 0;
    }
    seen.length = 0;
  }
  let best = 0;
  for (let owner = 0; owner < owners; owner++) best = Math.max(best, out[owner] as number);
  if (best > 0) for (let owner = 0; owner < owners; owner++) out[owner] = (out[owner] as number) / best;
  return out;
}
