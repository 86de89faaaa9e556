// The parsing side of native tool search: what the model asked for, from the provider's own item. OpenAI
// Responses sends a `tool_search_call` output item (client execution); Anthropic a `tool_use` block of our
// search tool. Both carry the arguments of `tool_search` (`{ query, limit? }` or `{ queries, limit? }`).
// These are third-party payloads: only the fields read are declared, and a bad one is a value, not a throw.
import type { SearchQuery } from '@tool-search/catalog';
import { z } from 'zod';
import { TOOL_SEARCH } from './control-tools.js';
import { nativeSearchArgsSchema, type NativeSearchArgs } from './schemas.js';

/** A parsed native search call: the call id to answer and the searches to run, or why it cannot be run. */
export type NativeSearchCall =
  | {
      ok: true;
      /** OpenAI: the item's `call_id` (echo it in the `tool_search_output`); Anthropic: the `tool_use` id. */
      callId: string;
      args: NativeSearchArgs;
      /** The searches, each with its limit (a top-level `limit` applies to every query without its own). */
      queries: SearchQuery[];
    }
  | {
      ok: false;
      /** The call id when the item had one: the call must still be answered (with nothing loaded, or an error result). */
      callId: string | undefined;
      /** What was wrong, for the log and (Anthropic) an error `tool_result`. */
      message: string;
    };

const openAIToolSearchCallSchema = z.looseObject({
  type: z.literal('tool_search_call'),
  call_id: z.string().min(1),
  execution: z.enum(['client', 'server']).optional(),
  arguments: z.unknown(),
});

const anthropicToolUseSchema = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string().min(1),
  name: z.string(),
  input: z.unknown(),
});

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${z.core.toDotPath(issue.path) || '(arguments)'}: ${issue.message}`)
    .join('; ');
}

function received(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  const type = (value as { type?: unknown }).type;
  return typeof type === 'string' ? `type ${JSON.stringify(type.slice(0, 40))}` : 'an object without a type';
}

function toQueries(args: NativeSearchArgs): SearchQuery[] {
  const withLimit = (query: string, limit: number | undefined): SearchQuery => (limit === undefined ? { query } : { query, limit });
  if (args.query !== undefined) return [withLimit(args.query, args.limit)];
  return (args.queries ?? []).map((entry) => (typeof entry === 'string' ? withLimit(entry, args.limit) : withLimit(entry.query, entry.limit ?? args.limit)));
}

function parseArguments(callId: string, value: unknown): NativeSearchCall {
  let raw = value;
  // The SDK types `arguments` as unknown and the API sends an object; a proxy may pass it on as JSON text.
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw) as unknown;
    } catch {
      return { ok: false, callId, message: 'tool search arguments are not valid JSON; expected { query } or { queries }' };
    }
  }
  const parsed = nativeSearchArgsSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, callId, message: `invalid tool search arguments: ${describeIssues(parsed.error)}` };
  return { ok: true, callId, args: parsed.data, queries: toQueries(parsed.data) };
}

/**
 * Parses an OpenAI Responses output item the model produced for the client-executed `tool_search` tool.
 * A server-executed call (hosted search) is refused: there is nothing for the client to answer.
 */
export function parseOpenAIToolSearchCall(item: unknown): NativeSearchCall {
  const parsed = openAIToolSearchCallSchema.safeParse(item);
  if (!parsed.success) {
    const callId = typeof (item as { call_id?: unknown } | null)?.call_id === 'string' ? ((item as { call_id: string }).call_id || undefined) : undefined;
    return { ok: false, callId, message: `expected a tool_search_call item with a call_id, received ${received(item)}` };
  }
  if (parsed.data.execution === 'server') {
    return { ok: false, callId: parsed.data.call_id, message: 'tool_search_call was executed by the server; only client-executed calls are answered' };
  }
  return parseArguments(parsed.data.call_id, parsed.data.arguments);
}

/** Parses an Anthropic `tool_use` block of the native search tool (`tool_search`, a client tool of ours). */
export function parseAnthropicToolSearchUse(block: unknown): NativeSearchCall {
  const parsed = anthropicToolUseSchema.safeParse(block);
  if (!parsed.success) {
    const id = (block as { id?: unknown } | null)?.id;
    return { ok: false, callId: typeof id === 'string' && id !== '' ? id : undefined, message: `expected a tool_use block with an id, received ${received(block)}` };
  }
  if (parsed.data.name !== TOOL_SEARCH) {
    return { ok: false, callId: parsed.data.id, message: `expected a tool_use of ${TOOL_SEARCH}, received ${JSON.stringify(parsed.data.name.slice(0, 64))}` };
  }
  return parseArguments(parsed.data.id, parsed.data.input);
}
