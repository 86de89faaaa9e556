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

/** A parsed message, or the reason a line is not one. */
export type ParsedChildMessage = { ok: true; message: ChildMessage } | { ok: false; reason: string };

/**
 * Parses and validates one channel line. `measured` says the line was already sized up by trusted code (the
 * QuickJS worker's host side); otherwise it is measured here first, and refused unparsed when it holds more
 * members or nests deeper than any real message can.
 */
export function parseChildMessage(line: string, options: { measured?: boolean } = {}): ParsedChildMessage {
  if (options.measured !== true) {
    // The payload nests one level below the envelope, and call arguments one more inside their tuple.
    const verdict = measureJsonText(line, MAX_JSON_MEMBERS + ENVELOPE_MEMBERS, MAX_JSON_DEPTH + 2);
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
  const schema = json !== null && typeof json === 'object' ? SCHEMA_BY_TYPE.get((json as { type?: unknown }).type) : undefined;
  if (schema === undefined) return { ok: false, reason: 'a channel line is not a valid protocol message' };
  const parsed = schema.safeParse(json);
  return parsed.success ? { ok: true, message: parsed.data } : { ok: false, reason: 'a channel line is not a valid protocol message' };
}
