// zod schemas for what crosses the package boundary: runner options in, child messages in.
import { z } from 'zod';

const finiteNumber = z.number().finite();

/** `RunnerOptions.limits`: strict, so a typo fails loudly. Values are clamped afterwards, not rejected. */
export const runnerLimitsSchema = z
  .object({
    timeoutMs: finiteNumber,
    heapMb: finiteNumber,
    outputBytes: finiteNumber,
    logLines: finiteNumber,
    logLineBytes: finiteNumber,
    resultBytes: finiteNumber,
    toolCalls: finiteNumber,
    inFlightCalls: finiteNumber,
  })
  .partial()
  .strict();

/** `RunnerOptions` (the logger is checked for shape only). */
export const runnerOptionsSchema = z
  .object({
    nodePath: z.string().min(1).optional(),
    engine: z.enum(['auto', 'node', 'quickjs']).optional(),
    isolation: z.enum(['auto', 'os', 'node-only']).optional(),
    logger: z.custom<object>((value) => typeof value === 'object' && value !== null).optional(),
    pool: z.object({ size: z.number().int().min(0).max(16) }).strict().optional(),
    limits: runnerLimitsSchema.optional(),
  })
  .strict();

const isFunction = (value: unknown) => typeof value === 'function';

/** `RunOptions`. */
export const runOptionsSchema = z
  .object({
    code: z.string(),
    bridge: z.object({
      search: z.custom<(...args: unknown[]) => unknown>(isFunction, 'bridge.search must be a function'),
      describe: z.custom<(...args: unknown[]) => unknown>(isFunction, 'bridge.describe must be a function'),
      call: z.custom<(...args: unknown[]) => unknown>(isFunction, 'bridge.call must be a function'),
    }),
    timeoutMs: finiteNumber.optional(),
    signal: z.custom<AbortSignal>((value) => value instanceof AbortSignal, 'signal must be an AbortSignal').optional(),
  })
  .strict();

const RUN_OPTION_KEYS = new Set(['code', 'bridge', 'timeoutMs', 'signal']);

/**
 * The common shape of `RunOptions`, checked by hand (the schema costs a sizeable share of a warm run; see
 * bench/RESULTS.md). Accepts only what `runOptionsSchema` accepts (a test holds them against each other); anything
 * else goes through the schema, which decides and names what is wrong.
 */
export function isCommonRunOptions(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  for (const key of Object.keys(value)) if (!RUN_OPTION_KEYS.has(key)) return false;
  const options = value as { code?: unknown; bridge?: unknown; timeoutMs?: unknown; signal?: unknown };
  const bridge = options.bridge as { search?: unknown; describe?: unknown; call?: unknown } | null | undefined;
  return (
    typeof options.code === 'string' &&
    typeof bridge === 'object' &&
    bridge !== null &&
    !Array.isArray(bridge) &&
    typeof bridge.search === 'function' &&
    typeof bridge.describe === 'function' &&
    typeof bridge.call === 'function' &&
    (options.timeoutMs === undefined || (typeof options.timeoutMs === 'number' && Number.isFinite(options.timeoutMs))) &&
    (options.signal === undefined || options.signal instanceof AbortSignal)
  );
}

// Child → parent messages. The child is untrusted: every line is parsed with these, and anything else is a
// protocol error. A forged message can do exactly what a real one does.

const callId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** The child passed its enforcement self-check and is waiting for a run. */
export const readyMessageSchema = z.object({ type: z.literal('ready'), version: z.string().max(64) }).strict();

/** The child found enforcement off (permission model, code generation, ...) and refuses to run. */
export const refusedMessageSchema = z.object({ type: z.literal('refused'), reason: z.string().max(4096) }).strict();

/**
 * The child took its `run` line and is about to compile and start the body. Before this, no model code has run in
 * the child, so a child that dies earlier can be replaced and the run retried; after it, a death is `crashed`.
 */
export const startedMessageSchema = z.object({ type: z.literal('started') }).strict();

/** JSON.parse only makes plain objects, so this is an object check, without the copy z.record would make. */
const searchOptions = z.custom<Record<string, unknown> | null>(
  (value) => value === null || (typeof value === 'object' && !Array.isArray(value)),
  'search options must be an object or null',
);

/**
 * A `tools.*` call from the body. Arguments are positional, as the handler receives them. No part of the
 * arguments is copied or walked here: their size, members and depth were measured before parsing.
 */
export const callMessageSchema = z.discriminatedUnion('method', [
  z.object({ type: z.literal('call'), id: callId, method: z.literal('search'), args: z.tuple([z.string(), searchOptions]) }).strict(),
  z.object({ type: z.literal('call'), id: callId, method: z.literal('describe'), args: z.tuple([z.string()]) }).strict(),
  z
    .object({ type: z.literal('call'), id: callId, method: z.literal('call'), args: z.tuple([z.string(), z.unknown()]) })
    .strict(),
]);

/** A `console.*` line of the body. */
export const logMessageSchema = z
  .object({ type: z.literal('log'), level: z.enum(['log', 'warn', 'error']), text: z.string() })
  .strict();

/** The body settled: a JSON value, or why not (`runtime`, `syntax`, `result_too_large`). */
export const doneMessageSchema = z.union([
  z.object({ type: z.literal('done'), ok: z.literal(true), value: z.unknown().optional() }).strict(),
  z
    .object({
      type: z.literal('done'),
      ok: z.literal(false),
      code: z.enum(['runtime', 'syntax', 'result_too_large']),
      message: z.string(),
    })
    .strict(),
]);

/** Any message the child may send. */
export const childMessageSchema = z.union([
  readyMessageSchema,
  refusedMessageSchema,
  startedMessageSchema,
  callMessageSchema,
  logMessageSchema,
  doneMessageSchema,
]);

/** A parsed, validated child message. */
export type ChildMessage = z.infer<typeof childMessageSchema>;
