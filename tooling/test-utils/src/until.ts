/**
 * Polls every 10 ms until `predicate` holds (sessions learn of server changes asynchronously) and throws naming
 * `what` after `timeoutMs` (default 4 s). No timing is asserted: the bound only keeps a broken test from hanging.
 */
export async function until(predicate: () => boolean, what: string, timeoutMs = 4_000): Promise<void> {
  for (let attempt = 0; attempt < timeoutMs / 10 && !predicate(); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!predicate()) throw new Error(`gave up waiting for ${what}`);
}
