// One line from the child → a validated message, or null. The child is untrusted; nothing else is accepted.
import { childMessageSchema, type ChildMessage } from '../schemas.js';

/** Parses and validates one channel line. Returns null for anything that is not exactly a protocol message. */
export function parseChildMessage(line: string): ChildMessage | null {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return null;
  }
  const parsed = childMessageSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}
