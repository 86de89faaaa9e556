// Bounds on a JSON Schema before anything compiles it. Schemas from MCP servers are untrusted input: a
// 10,000-deep nesting overflows ajv's recursive compiler, a 5 MB schema costs seconds, and a chain of
// definitions that each reference the previous one twice compiles fast but validates in 2^n steps. All
// of that is measured here, iteratively (no recursion, so depth cannot overflow this check either), and
// the walk stops as soon as a limit is passed, so a huge schema costs no more than a limit-sized one.

/** Limits a schema must stay within to be compiled. */
export interface SchemaLimits {
  /** Approximate serialised size (keys, strings, 4 bytes per other value). */
  maxBytes: number;
  /** Nesting depth of objects and arrays. */
  maxDepth: number;
  /** Values in the schema (objects, arrays and scalars): what ajv's compile time grows with. */
  maxNodes: number;
  /** Schema objects visited when every local `$ref` is expanded (a cycle counts once): bounds validation work. */
  maxExpandedNodes: number;
}

/**
 * Defaults: about 10x the largest schema listed from 21 public MCP servers (12 KB, 264 values, depth 21). ajv's
 * compile time at the value limit is still noticeable, once per tool (bench/RESULTS.md).
 */
export const DEFAULT_SCHEMA_LIMITS: SchemaLimits = Object.freeze({
  maxBytes: 131_072,
  maxDepth: 64,
  maxNodes: 2_500,
  maxExpandedNodes: 25_000,
});

type Container = Record<string, unknown> | unknown[];

const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null;

/** Why the schema is outside the limits (or uses a non-local `$ref`), or `undefined` when it may be compiled. */
export function checkSchemaLimits(schema: unknown, limits: SchemaLimits = DEFAULT_SCHEMA_LIMITS): string | undefined {
  if (!isContainer(schema)) return undefined;
  let bytes = 0;
  let nodes = 1;
  const refs: { holder: Container; ref: string }[] = [];
  const stack: { value: Container; depth: number }[] = [{ value: schema, depth: 1 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (depth > limits.maxDepth) return `schema nesting exceeds ${limits.maxDepth} levels`;
    const entries: [string, unknown][] = Array.isArray(value) ? value.map((item) => ['', item]) : Object.entries(value);
    nodes += entries.length;
    if (nodes > limits.maxNodes) return `schema has more than ${limits.maxNodes} values`;
    for (const [key, inner] of entries) {
      bytes += key.length + (typeof inner === 'string' ? inner.length : 4);
      if (key === '$ref' && typeof inner === 'string') {
        if (!inner.startsWith('#')) return `schema has a $ref that is not local (${JSON.stringify(inner.slice(0, 80))})`;
        refs.push({ holder: value, ref: inner });
      }
      if (isContainer(inner)) stack.push({ value: inner, depth: depth + 1 });
    }
    if (bytes > limits.maxBytes) return `schema exceeds ${limits.maxBytes} bytes`;
  }
  if (refs.length === 0) return undefined;
  const expanded = expandedNodeCount(schema, refs, limits.maxExpandedNodes);
  return expanded > limits.maxExpandedNodes ? `schema expands to more than ${limits.maxExpandedNodes} subschemas through its $refs` : undefined;
}

/**
 * How many schema objects a validator may visit with every `$ref` followed, memoised per object (post-order,
 * with an explicit stack). A reference back to an object still being counted is a cycle: it costs one, as
 * recursion is bounded by the data, not the schema. Counts are capped just above `cap`.
 */
function expandedNodeCount(root: Container, refs: { holder: Container; ref: string }[], cap: number): number {
  const targetOf = new Map<Container, Container>();
  for (const { holder, ref } of refs) {
    const target = resolveLocalPointer(root, ref);
    if (target !== undefined) targetOf.set(holder, target);
  }
  const cost = new Map<Container, number>();
  const inProgress = new Set<Container>();
  const stack: { node: Container; children?: Container[] }[] = [{ node: root }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.children === undefined) {
      if (cost.has(frame.node) || inProgress.has(frame.node)) {
        stack.pop();
        continue;
      }
      inProgress.add(frame.node);
      const values: unknown[] = Array.isArray(frame.node) ? frame.node : Object.values(frame.node);
      frame.children = values.filter(isContainer);
      const target = targetOf.get(frame.node);
      if (target !== undefined) frame.children.push(target);
      for (const child of frame.children) if (!cost.has(child) && !inProgress.has(child)) stack.push({ node: child });
      continue;
    }
    let total = 1;
    for (const child of frame.children) total += cost.get(child) ?? 1;
    cost.set(frame.node, Math.min(total, cap + 1));
    inProgress.delete(frame.node);
    stack.pop();
  }
  return cost.get(root) ?? 1;
}

/** Resolves `#` or `#/a/b~1c/0` inside `root` (anchors are left to the compiler). */
function resolveLocalPointer(root: Container, ref: string): Container | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let current: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (!isContainer(current)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return isContainer(current) ? current : undefined;
}
