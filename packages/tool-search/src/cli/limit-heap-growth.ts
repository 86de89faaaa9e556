// serve on stdio relays large transient payloads (a 100 KB call in, its 100 KB answer out) while the data it keeps
// is small. Copies of those payloads that are still in use when the young generation is collected (a request in
// flight, an answer queued for a slow client) move to the old generation and die there, and V8's default lets the
// old generation grow to several times its live size before a full collection. Measured under a 2,000-call
// flood on Node 26 (serve-stdio-flood.test.ts), the old space held 196 MB with 26 MB of it live, and the process's
// resident memory peaked at 294-458 MB. A lower growing factor makes the full collections come sooner; with
// 50 % the peak was 222-249 MB, for about the same CPU time (5.8-7.3 s against 5.1-6.4 s for the flood).
import { setFlagsFromString } from 'node:v8';

/** How far (in percent of the live size) V8 lets the old generation grow before its next full collection. */
export const SERVE_HEAP_GROWING_PERCENT = 50;

/** Lowers V8's old-generation growing factor for this process to `SERVE_HEAP_GROWING_PERCENT`. */
export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${SERVE_HEAP_GROWING_PERCENT}`);
}
