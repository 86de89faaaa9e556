// What the three wire-format loops share: reading the model's arguments, joining instructions, recording a call.
import type { ToolCallOutcome } from '@tool-search/gateway-adapter';
import type { AgentToolCall } from '../agent-loop-options.js';

/** The model's arguments as JSON; malformed JSON goes to the session as-is, which reports it as invalid. */
export function parseToolArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The non-empty instruction parts, separated by a blank line. */
export function joinInstructions(...parts: Array<string | undefined>): string {
  return parts.filter((part): part is string => Boolean(part && part.trim())).join('\n\n');
}

/** The record of one call and the session's outcome. */
export function toolCallRecord(callId: string, name: string, args: string, outcome: ToolCallOutcome): AgentToolCall {
  return { callId, name, arguments: args, status: outcome.status, content: outcome.content };
}

/** A client supplied for another wire format is a broken contract of the caller. */
export function wrongClient(api: string, expected: string): Error {
  return new TypeError(`runAgentLoop: provider.api ${api} needs the official ${expected} client`);
}
