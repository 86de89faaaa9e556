// What one wire format of the mock provider is: how it reads a request (refusing what the real API refuses),
// how it answers a resolved script reply (JSON or SSE), and how its errors look. The server picks one by path.
import type { ServerResponse } from 'node:http';
import type { ProviderApi, ProviderRequestView, ResolvedReply } from '../resolve-script-reply.js';

/** Function-like tool definitions of one request, as the provider sees them (namespaces flattened). */
export interface RequestSchemaCounts {
  /** Every definition with a schema the request declares (control, client and catalog tools). */
  declared: number;
  /** Declared with `defer_loading: true`. */
  deferred: number;
  /** Deferred definitions the conversation loaded (tool search outputs, tool references). */
  loaded: number;
  /** Definitions in the model's context for this turn: the ones not deferred, plus the loaded ones. */
  inContext: number;
}

/** A request (or a scripted reply) the real provider would refuse: answered with this status and error. */
export interface MockRefusal {
  status: number;
  /** A short code, e.g. `no_rule_matched`, `deferred_tool_not_loaded`, `invalid_tool_search_output`. */
  code: string;
  message: string;
}

/** A request read by its wire format: the view scripts match against, or why the provider refuses it. */
export type ReadRequestResult = { ok: true; view: ProviderRequestView; schemas: RequestSchemaCounts } | { ok: false; refusal: MockRefusal };

/** What an answer needs besides the view and the reply. */
export interface AnswerContext {
  requestBytes: number;
  /** A fresh id suffix per call. */
  ids: () => string;
}

/** One wire format of the mock provider. */
export interface MockApi {
  readonly api: ProviderApi;
  read(body: Record<string, unknown>): ReadRequestResult;
  answer(response: ServerResponse, view: ProviderRequestView, reply: ResolvedReply, context: AnswerContext): void;
  /** The error body of this API for a refusal. */
  errorBody(refusal: MockRefusal): unknown;
}

/** Record access for third-party payloads: only the fields read, never trusted to be there. */
export type Json = Record<string, unknown>;

export function asRecord(value: unknown): Json {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The text of a message or result content: a string, or the `text` of its parts. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return asArray(content)
    .map((part) => (typeof asRecord(part).text === 'string' ? String(asRecord(part).text) : ''))
    .join('');
}

/** A 400 refusal. */
export function refuse(code: string, message: string): { ok: false; refusal: MockRefusal } {
  return { ok: false, refusal: { status: 400, code, message } };
}

/** The schema counts of a view; `extraControl` counts a declared search tool that is not a function (Responses). */
export function countSchemas(view: ProviderRequestView, extraControl = 0): RequestSchemaCounts {
  const loaded = view.tools.filter((tool) => tool.deferred && tool.loaded).length;
  const deferred = view.deferredTools.length + loaded;
  const declared = view.tools.length + view.deferredTools.length + extraControl;
  return { declared, deferred, loaded, inContext: declared - deferred + loaded };
}

/**
 * Checks that a model could have produced the reply: it calls only tools it can see (a deferred tool the
 * conversation has not loaded is invisible to the model, so a real provider never emits that call), and it
 * calls a provider tool search only where the request declares one. Names the request does not declare at all
 * pass: models do call such names, and the gateway must answer them.
 */
export function checkReply(view: ProviderRequestView, reply: ResolvedReply): MockRefusal | undefined {
  for (const call of reply.toolCalls) {
    const deferred = view.deferredTools.find((tool) => tool.name === call.name);
    if (deferred !== undefined) {
      return {
        status: 400,
        code: 'deferred_tool_not_loaded',
        message: `script rule ${reply.ruleId} calls ${call.name}, which the request declares with defer_loading but no tool search loaded: the model cannot see it`,
      };
    }
  }
  if (reply.toolSearch !== undefined && !view.declaresToolSearch) {
    return {
      status: 400,
      code: 'tool_search_not_declared',
      message: `script rule ${reply.ruleId} calls the provider's tool search, but the request declares no client-executed tool_search tool${view.api === 'responses' ? '' : ` (the ${view.api} API has none)`}`,
    };
  }
  return undefined;
}

/** Splits a text in two, so an SSE client really has to accumulate deltas. */
export function halves(text: string): [string, string] {
  const middle = Math.floor(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)];
}
