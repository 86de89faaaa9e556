// One line from the child → a validated message, or why not. The child is untrusted; nothing else is accepted.
// The line is measured before it is parsed, so a hostile line costs the parent a bounded amount of work.
import type { z } from 'zod';
import {
  callMessageSchema,
  doneMessageSchema,
  logMessageSchema,
  readyMessageSchema,
  refusedMessageSchema,
  startedMessageSchema,
  type ChildMessage,
} from '../schemas.js';
import { MAX_JSON_DEPTH, MAX_JSON_MEMBERS, measureJsonText } from './measure-json-text.js';

/** Members of the envelope around a payload (`type`, `id`, `method`, `args`), which the realm does not count. */
export const ENVELOPE_MEMBERS = 4;

/**
 * The caps a whole channel line is measured against: a payload's own, plus the envelope's members, and two levels
 * (the payload nests one level below the envelope, and call arguments one more inside their tuple).
 */
export const LINE_CAPS = { members: MAX_JSON_MEMBERS + ENVELOPE_MEMBERS, depth: MAX_JSON_DEPTH + 2 } as const;

/**
 * The schema of each message type: a line is checked against the one its `type` names (the union of all of
 * them, `childMessageSchema`, would try each member in turn, several times the cost for a call or a log line).
 */
const SCHEMA_BY_TYPE = new Map<unknown, z.ZodType<ChildMessage>>([
  ['ready', readyMessageSchema],
  ['refused', refusedMessageSchema],
  ['started', startedMessageSchema],
  ['call', callMessageSchema],
  ['log', logMessageSchema],
  ['done', doneMessageSchema],
]);

type JsonObject = Record<string, unknown>;

/** True when `value` has exactly these own keys (the schemas are strict), in any order. */
function hasExactly(value: JsonObject, keys: readonly string[]): boolean {
  const own = Object.keys(value);
  if (own.length !== keys.length) return false;
  for (const key of keys) if (!Object.hasOwn(value, key)) return false;
  return true;
}

const isCallId = (value: unknown) => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
const LOG_LEVELS = new Set<unknown>(['log', 'warn', 'error']);
const DONE_ERROR_CODES = new Set<unknown>(['runtime', 'syntax', 'result_too_large']);
const CALL_KEYS = ['type', 'id', 'method', 'args'] as const;

/**
 * The common shape of each hot message, checked by hand: a call, a log line, a result, `started`. Each check
 * accepts only what its schema accepts (a test holds them against each other); a line it does not accept goes
 * through the schema, which decides. The check costs a small fraction of the schema (bench/RESULTS.md).
 */
const FAST_CHECK_BY_TYPE = new Map<unknown, (json: JsonObject) => boolean>([
  ['started', (json) => hasExactly(json, ['type'])],
  ['log', (json) => hasExactly(json, ['type', 'level', 'text']) && LOG_LEVELS.has(json.level) && typeof json.text === 'string'],
  [
    'done',
    (json) =>
      json.ok === true
        ? hasExactly(json, Object.hasOwn(json, 'value') ? ['type', 'ok', 'value'] : ['type', 'ok'])
        : json.ok === false && hasExactly(json, ['type', 'ok', 'code', 'message']) && DONE_ERROR_CODES.has(json.code) && typeof json.message === 'string',
  ],
  [
    'call',
    (json) => {
      if (!hasExactly(json, CALL_KEYS) || !isCallId(json.id) || !Array.isArray(json.args) || typeof json.args[0] !== 'string') return false;
      const args = json.args as unknown[];
      switch (json.method) {
        case 'search':
          return args.length === 2 && (args[1] === null || (typeof args[1] === 'object' && !Array.isArray(args[1])));
        case 'describe':
          return args.length === 1;
        case 'call':
          return args.length === 2;
        default:
          return false;
      }
    },
  ],
]);

/** Test-only: the hand checks, to hold each against its schema. */
export const FAST_CHECKS_FOR_TESTS: ReadonlyMap<unknown, (json: JsonObject) => boolean> = FAST_CHECK_BY_TYPE;

/** A parsed message, or the reason a line is not one. */
export type ParsedChildMessage = { ok: true; message: ChildMessage } | { ok: false; reason: string };

/**
 * Parses and validates one channel line. `measured` says the line was already sized up by trusted code (the
 * QuickJS worker's host side, or the child-process host's worker against `LINE_CAPS`); otherwise it is measured
 * here first, and refused unparsed when it holds more members or nests deeper than any real message can.
 */
export function parseChildMessage(line: string, options: { measured?: boolean } = {}): ParsedChildMessage {
  if (options.measured !== true) {
    const verdict = measureJsonText(line, LINE_CAPS.members, LINE_CAPS.depth);
    if (verdict === 1) return { ok: false, reason: `a channel line holds more than ${MAX_JSON_MEMBERS} array elements and object members` };
    if (verdict === 2) return { ok: false, reason: `a channel line is nested more than ${MAX_JSON_DEPTH} levels deep` };
    if (verdict !== 0) return { ok: false, reason: 'a channel line is not a valid protocol message' };
  }
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return { ok: false, reason: 'a channel line is not a valid protocol message' };
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return { ok: false, reason: 'a channel line is not a valid protocol message' };
  const type = (json as { type?: unknown }).type;
  if (FAST_CHECK_BY_TYPE.get(type)?.(json as JsonObject) === true) return { ok: true, message: json as ChildMessage };
  const schema = SCHEMA_BY_TYPE.get(type);
  if (schema === undefined) return { ok: false, reason: 'a channel line is not a valid protocol message' };
  const parsed = schema.safeParse(json);
  return parsed.success ? { ok: true, message: parsed.data } : { ok: false, reason: 'a channel line is not a valid protocol message' };
}
