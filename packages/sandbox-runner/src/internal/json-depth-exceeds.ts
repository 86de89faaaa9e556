// Values from the child are parsed iteratively by JSON.parse, but much host code is recursive (JSON.stringify
// on Node 20/22 overflows its stack at a few thousand levels). A parent on any supported Node must never be
// crashed by a deep value, so values that cross are bounded in depth, checked without recursion.

/** The deepest nesting a result or call argument may have when it crosses from the child. */
export const MAX_JSON_DEPTH = 256;

/** True when `value` nests arrays/objects more than `maxDepth` levels deep. Iterative: safe on any input. */
export function jsonDepthExceeds(value: unknown, maxDepth: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (next.value === null || typeof next.value !== 'object') continue;
    const depth = next.depth + 1;
    if (depth > maxDepth) return true;
    const children = Array.isArray(next.value) ? next.value : Object.values(next.value);
    for (const child of children) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth });
    }
  }
  return false;
}
