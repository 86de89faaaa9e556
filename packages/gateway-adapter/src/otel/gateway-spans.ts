// The gateway's spans: `execute_tool {tool}` per final call (GenAI semantic conventions), our own search,
// describe and code-run spans under `tool_search.*`, and the MCP client span of each upstream request, with the
// W3C trace context injected into the request's `params._meta` (MCP SEP-414).
import { AsyncResource } from 'node:async_hooks';
import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import type { ToolCallOutcome } from '../tool-call-outcome.js';
import { gatewayInstruments, gatewayTracer, type CallOutcomeKind } from './gateway-instruments.js';

/** What a host opts into recording beyond the default attributes (arguments, results and query text are off). */
export interface OpenTelemetryOptions {
  /** Record a call's arguments as `gen_ai.tool.call.arguments` (JSON). Default false. */
  recordArguments?: boolean | undefined;
  /** Record a call's result text as `gen_ai.tool.call.result`. Default false. */
  recordResults?: boolean | undefined;
  /** Record a search's query text as `tool_search.query`. Default false. */
  recordQueries?: boolean | undefined;
}

/** Characters of an opted-in argument, result or query attribute. */
const MAX_RECORDED_CHARS = 4_096;

/** The outcome kind of a final call, as `tool_search.call.outcome` and `error.type` read it. */
export function callOutcomeKind(outcome: ToolCallOutcome): CallOutcomeKind {
  if (outcome.status === 'ok' || outcome.status === 'client') return 'ok';
  if (outcome.status === 'blocked') return outcome.by === 'approval' ? 'denied' : 'blocked';
  switch (outcome.code) {
    case 'timeout':
      return 'timeout';
    case 'unavailable':
    case 'unknown_tool':
      return 'unavailable';
    case 'tool_failed':
    case 'code_failed':
    case 'invalid_output':
    case 'result_too_large':
      return 'tool_error';
    default:
      return 'protocol_error';
  }
}

/** What `traceToolCall` knows before the call runs. */
export interface ToolCallFacts {
  toolId: string;
  toolCallId: string;
  source: string;
  via: string;
  args: Record<string, unknown>;
}

/**
 * Runs one final call inside an `execute_tool {tool}` span (the active span while it runs, so upstream MCP spans
 * nest under it). Its outcome is counted by the session's OpenTelemetry sink, from the session's `call` event.
 */
export async function traceToolCall(facts: ToolCallFacts, options: OpenTelemetryOptions, run: () => Promise<ToolCallOutcome>): Promise<ToolCallOutcome> {
  const attributes: Attributes = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': facts.toolId,
    'gen_ai.tool.call.id': facts.toolCallId,
    'gen_ai.tool.type': facts.source === 'mcp' ? 'extension' : 'function',
    'tool_search.call.via': facts.via,
  };
  if (options.recordArguments === true) attributes['gen_ai.tool.call.arguments'] = clip(JSON.stringify(facts.args));
  return gatewayTracer().startActiveSpan(`execute_tool ${facts.toolId}`, { kind: SpanKind.INTERNAL, attributes }, async (span) => {
    try {
      const outcome = await run();
      const kind = callOutcomeKind(outcome);
      span.setAttribute('tool_search.call.outcome', kind);
      if (kind !== 'ok') {
        span.setAttribute('error.type', outcome.status === 'error' ? outcome.code : kind);
        span.setStatus({ code: SpanStatusCode.ERROR, message: clip(outcome.content, 256) });
      } else if (options.recordResults === true) {
        span.setAttribute('gen_ai.tool.call.result', clip(outcome.content));
      }
      return outcome;
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** What one search answered, for its span and the search counters. */
export interface SearchFacts {
  query: string;
  via: string;
  hits: number;
  topScore: number | undefined;
  weak: boolean;
  server?: string | undefined;
}

/** Records a finished search as a `tool_search.search` span (child of the active span) and counts it. */
export function recordSearch(facts: SearchFacts, options: OpenTelemetryOptions): void {
  const attributes: Attributes = {
    'tool_search.query.length': facts.query.length,
    'tool_search.search.hits': facts.hits,
    'tool_search.search.weak': facts.weak,
    'tool_search.search.via': facts.via,
  };
  if (facts.topScore !== undefined) attributes['tool_search.search.top_score'] = facts.topScore;
  if (facts.server !== undefined) attributes['tool_search.server'] = facts.server;
  if (options.recordQueries === true) attributes['tool_search.query'] = clip(facts.query);
  gatewayTracer().startSpan('tool_search.search', { kind: SpanKind.INTERNAL, attributes }).end();
  const instruments = gatewayInstruments();
  const counted = { 'tool_search.search.via': facts.via };
  instruments.searches.add(1, counted);
  if (facts.weak) instruments.weakSearches.add(1, counted);
  if (facts.hits === 0) instruments.emptySearches.add(1, counted);
}

/** Records a finished describe as a `tool_search.describe` span. */
export function recordDescribe(facts: { target: string; found: boolean; toolId?: string | undefined; via: string }): void {
  const attributes: Attributes = { 'tool_search.describe.found': facts.found, 'tool_search.describe.via': facts.via };
  if (facts.toolId !== undefined) attributes['gen_ai.tool.name'] = facts.toolId;
  gatewayTracer().startSpan('tool_search.describe', { kind: SpanKind.INTERNAL, attributes }).end();
}

/**
 * Runs a `tool_search_code` body inside a `tool_search.code_run` span. `run` gets `bind`, which ties a bridge
 * callback to the span's context: the sandbox calls back from its own event loop turn, where the active context
 * would otherwise be lost, so the body's inner calls nest under the run.
 */
export function traceCodeRun<T>(toolCallId: string, run: (bind: <F extends (...args: never[]) => unknown>(fn: F) => F) => Promise<T>, summary: (result: T) => { ok: boolean; innerCalls: number }): Promise<T> {
  return gatewayTracer().startActiveSpan('tool_search.code_run', { kind: SpanKind.INTERNAL, attributes: { 'gen_ai.tool.call.id': toolCallId } }, async (span) => {
    const active = context.active();
    try {
      // Each bridge callback also runs in the run's own async context (the runner answers it from its child's stream,
      // whose context is the one that spawned the child): whatever the caller keeps there (whose call it is) holds.
      const result = await run((fn) => context.bind(active, AsyncResource.bind(fn as unknown as (...args: unknown[]) => unknown) as unknown as typeof fn));
      const { ok, innerCalls } = summary(result);
      span.setAttribute('tool_search.code_run.inner_calls', innerCalls);
      if (!ok) span.setStatus({ code: SpanStatusCode.ERROR });
      return result;
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** What the MCP client span of one upstream request carries. */
export interface McpRequestFacts {
  /** `tools/call`, `resources/read`, ... */
  method: string;
  /** The tool or prompt name (the span name's target), when the request has one. */
  target?: string | undefined;
  server: string;
  /** `pipe` for stdio, `tcp` for HTTP. */
  transport: 'pipe' | 'tcp';
  protocolVersion?: string | undefined;
  /** The 2025-era HTTP session id (a 2026-07-28 connection has none). */
  sessionId?: string | undefined;
}

/** The client spans `traceMcpRequest` opened: a request sent while one is active is labelled with its JSON-RPC id. */
const clientSpans = new WeakSet<Span>();

/**
 * Labels the active MCP client span with the JSON-RPC id of each request `transport` sends (the SDK assigns the
 * id inside `send`'s caller, so it is read here, where the message leaves).
 */
export function labelRequestIds(transport: { send(message: never, options?: never): Promise<void> }): void {
  const send = transport.send.bind(transport) as (message: unknown, options?: unknown) => Promise<void>;
  (transport as { send: (message: unknown, options?: unknown) => Promise<void> }).send = (message, options) => {
    const span = trace.getActiveSpan();
    if (span !== undefined && clientSpans.has(span) && typeof message === 'object' && message !== null && 'method' in message && 'id' in message) {
      span.setAttribute('jsonrpc.request.id', String((message as { id: unknown }).id));
    }
    return send(message, options);
  };
}

/**
 * Runs one upstream MCP request inside a client span named `{method} {target}` and records
 * `mcp.client.operation.duration`; `ok` says from the request's own result whether it failed.
 */
export function traceMcpRequest<T>(facts: McpRequestFacts, run: () => Promise<T>, failed: (value: T) => string | undefined): Promise<T> {
  const attributes: Attributes = { 'mcp.method.name': facts.method, 'network.transport': facts.transport, 'tool_search.server': facts.server };
  if (facts.target !== undefined && facts.method === 'tools/call') attributes['gen_ai.tool.name'] = facts.target;
  if (facts.target !== undefined && facts.method === 'prompts/get') attributes['gen_ai.prompt.name'] = facts.target;
  if (facts.protocolVersion !== undefined) attributes['mcp.protocol.version'] = facts.protocolVersion;
  if (facts.sessionId !== undefined) attributes['mcp.session.id'] = facts.sessionId;
  const name = facts.target === undefined ? facts.method : `${facts.method} ${facts.target}`;
  const started = performance.now();
  return gatewayTracer().startActiveSpan(name, { kind: SpanKind.CLIENT, attributes }, async (span) => {
    clientSpans.add(span);
    const measured: Attributes = { 'mcp.method.name': facts.method, 'network.transport': facts.transport };
    if (facts.protocolVersion !== undefined) measured['mcp.protocol.version'] = facts.protocolVersion;
    try {
      const value = await run();
      const errorType = failed(value);
      if (errorType !== undefined) {
        span.setAttribute('error.type', errorType);
        span.setStatus({ code: SpanStatusCode.ERROR });
        measured['error.type'] = errorType;
      }
      return value;
    } catch (error) {
      failSpan(span, error);
      measured['error.type'] = error instanceof Error ? error.name : 'unknown';
      throw error;
    } finally {
      gatewayInstruments().clientDuration.record((performance.now() - started) / 1_000, measured);
      span.end();
    }
  });
}

/** The active W3C trace context (`traceparent`, `tracestate`, `baggage`) as `_meta` keys, or undefined when there is none. */
export function traceContextMeta(): Record<string, string> | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return Object.keys(carrier).length === 0 ? undefined : carrier;
}

function failSpan(span: Span, error: unknown): void {
  span.setAttribute('error.type', error instanceof Error ? error.name : 'unknown');
  span.setStatus({ code: SpanStatusCode.ERROR, message: clip(error instanceof Error ? error.message : String(error), 256) });
}

function clip(text: string, max = MAX_RECORDED_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
