// The front's MCP server span of each request, per the MCP semantic conventions: named `{method} {target}`,
// kind SERVER, the parent taken from the W3C trace context in `params._meta` (MCP SEP-414) so a client's trace
// continues through the gateway, and `mcp.server.operation.duration` recorded.
import { context, metrics, propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Histogram, type Meter } from '@opentelemetry/api';
import { MCP_DURATION_BUCKETS } from '@tool-search/gateway-adapter';

const SCOPE = '@tool-search/mcp-server';

/** What the span of one request records. */
export interface ServerRequestFacts {
  method: string;
  /** The request's params (its `_meta` carries the caller's trace context; `name` is a tool's or prompt's). */
  params: unknown;
  requestId: string | number | undefined;
  /** The 2025-era session id (a 2026-07-28 request has none). */
  sessionId?: string | undefined;
  protocolVersion?: string | undefined;
  transport: 'pipe' | 'tcp';
}

let duration: { meter: Meter; histogram: Histogram } | undefined;

function serverDuration(): Histogram {
  const meter = metrics.getMeter(SCOPE);
  if (duration?.meter !== meter) {
    duration = {
      meter,
      histogram: meter.createHistogram('mcp.server.operation.duration', {
        description: 'Duration of an MCP request as the front received it, until its answer.',
        unit: 's',
        advice: { explicitBucketBoundaries: MCP_DURATION_BUCKETS },
      }),
    };
  }
  return duration.histogram;
}

/** Runs a request handler inside its server span; a `tools/call` result with `isError` marks the span `tool_error`. */
export async function traceServerRequest<R>(facts: ServerRequestFacts, handle: () => R | Promise<R>): Promise<R> {
  const params = typeof facts.params === 'object' && facts.params !== null ? (facts.params as Record<string, unknown>) : {};
  const meta = typeof params['_meta'] === 'object' && params['_meta'] !== null ? (params['_meta'] as Record<string, unknown>) : {};
  const carrier: Record<string, string> = {};
  for (const key of ['traceparent', 'tracestate', 'baggage']) if (typeof meta[key] === 'string') carrier[key] = meta[key];
  const parent = propagation.extract(context.active(), carrier);
  const named = facts.method === 'tools/call' || facts.method === 'prompts/get' ? params['name'] : undefined;
  const target = typeof named === 'string' ? named.slice(0, 200) : undefined;
  const attributes: Attributes = { 'mcp.method.name': facts.method, 'network.transport': facts.transport };
  if (facts.requestId !== undefined) attributes['jsonrpc.request.id'] = String(facts.requestId);
  if (facts.sessionId !== undefined) attributes['mcp.session.id'] = facts.sessionId;
  if (facts.protocolVersion !== undefined) attributes['mcp.protocol.version'] = facts.protocolVersion;
  if (target !== undefined && facts.method === 'tools/call') attributes['gen_ai.tool.name'] = target;
  if (target !== undefined && facts.method === 'prompts/get') attributes['gen_ai.prompt.name'] = target;
  const measured: Attributes = { 'mcp.method.name': facts.method, 'network.transport': facts.transport };
  if (facts.protocolVersion !== undefined) measured['mcp.protocol.version'] = facts.protocolVersion;
  const started = performance.now();
  const tracer = trace.getTracer(SCOPE);
  return tracer.startActiveSpan(target === undefined ? facts.method : `${facts.method} ${target}`, { kind: SpanKind.SERVER, attributes }, parent, async (span) => {
    try {
      const result = await handle();
      if (typeof result === 'object' && result !== null && (result as { isError?: unknown }).isError === true) {
        span.setAttribute('error.type', 'tool_error');
        span.setStatus({ code: SpanStatusCode.ERROR });
        measured['error.type'] = 'tool_error';
      }
      return result;
    } catch (error) {
      const type = error instanceof Error ? error.name : 'unknown';
      span.setAttribute('error.type', type);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error instanceof Error ? error.message : String(error)).slice(0, 256) });
      measured['error.type'] = type;
      throw error;
    } finally {
      serverDuration().record((performance.now() - started) / 1_000, measured);
      span.end();
    }
  });
}
