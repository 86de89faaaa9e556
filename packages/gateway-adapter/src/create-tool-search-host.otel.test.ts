import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { startScriptedMcpServer, type ScriptedMcpServer } from '@tool-search/test-utils';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createToolSearchHost, type ToolSearchHost } from './create-tool-search-host.js';
import type { ExecutableTool } from './executable-tool.js';
import { scaledTimeout } from '@tool-search/property-settings';

// The host's OpenTelemetry, read through the OTel SDK's in-memory exporters: the spans nest under the caller's
// span, the upstream MCP server receives the trace context in `_meta`, nothing but lengths of a query or a call's
// arguments is recorded unless asked, and the metrics count what happened.

const spans = new InMemorySpanExporter();
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
const contextManager = new AsyncLocalStorageContextManager();

const ran: string[] = [];
const localTools: ExecutableTool[] = [
  { name: 'get_weather', description: 'Get the weather forecast for a city.', inputSchema: { type: 'object', properties: { city: { type: 'string' } } }, execute: () => (ran.push('get_weather'), 'rain') },
  { name: 'exec_shell', description: 'Run a shell command on the host.', inputSchema: { type: 'object', properties: { command: { type: 'string' } } }, execute: () => (ran.push('exec_shell'), 'ran') },
];

let upstream: ScriptedMcpServer;
let host: ToolSearchHost;

beforeAll(async () => {
  context.setGlobalContextManager(contextManager.enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] }));
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  upstream = await startScriptedMcpServer('notes', [{ name: 'create_note', description: 'Create a note with a title and a text.' }]);
}, scaledTimeout(30_000));

afterAll(async () => {
  await upstream?.close();
  trace.disable();
  metrics.disable();
  propagation.disable();
  context.disable();
});

afterEach(async () => {
  await host?.close();
  spans.reset();
});

async function openHost(openTelemetry?: { recordArguments?: boolean; recordQueries?: boolean; recordResults?: boolean }) {
  host = await createToolSearchHost({ sources: { openclaw: localTools, mcp: [upstream.config()] }, startupTimeoutMs: 20_000, ...(openTelemetry === undefined ? {} : { openTelemetry }) });
  // `exec_shell` needs an approval, and the approver refuses every one.
  return host.openSession({ config: { mode: 'tools' }, policy: { requireApproval: ['exec_shell'] }, approvals: { requestApproval: () => ({ decision: 'deny', reason: 'no' }) } });
}

const named = (name: string) => spans.getFinishedSpans().filter((span) => span.name === name);
const one = (name: string): ReadableSpan => {
  const found = named(name);
  expect(found.map((span) => span.name)).toEqual([name]);
  return found[0] as ReadableSpan;
};
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

async function collected(): Promise<ResourceMetrics> {
  await reader.forceFlush();
  const all = metricExporter.getMetrics();
  return all[all.length - 1] as ResourceMetrics;
}
function points(resource: ResourceMetrics, name: string): Array<{ attributes: Record<string, unknown>; value: unknown }> {
  const metric = resource.scopeMetrics.flatMap((scope) => scope.metrics).find((entry) => entry.descriptor.name === name);
  return (metric?.dataPoints ?? []).map((point) => ({ attributes: point.attributes, value: point.value }));
}

describe('OpenTelemetry of a host', () => {
  it('nests search, execute_tool and the upstream MCP client span under the caller span, and the upstream request carries its trace context', async () => {
    const session = await openHost();
    const caller = trace.getTracer('test-agent');
    await caller.startActiveSpan('execute_tool tool_call', async (agentSpan) => {
      await session.execute({ name: 'tool_search', args: { query: 'create a note' }, toolCallId: 'c1' });
      const outcome = await session.execute({ name: 'tool_call', args: { id: 'mcp:notes:create_note', args: { text: 'hi' } }, toolCallId: 'c2' });
      expect(outcome.status).toBe('ok');
      agentSpan.end();
    });
    const agent = one('execute_tool tool_call');
    const search = one('tool_search.search');
    expect(parentOf(search)).toBe(agent.spanContext().spanId);
    expect(search.attributes).toMatchObject({ 'tool_search.query.length': 'create a note'.length, 'tool_search.search.via': 'tool_search', 'tool_search.search.weak': false });
    expect(search.attributes['tool_search.search.hits']).toBeGreaterThan(0);
    expect(search.attributes).not.toHaveProperty('tool_search.query');

    const executed = one('execute_tool mcp:notes:create_note');
    expect(parentOf(executed)).toBe(agent.spanContext().spanId);
    expect(executed.spanContext().traceId).toBe(agent.spanContext().traceId);
    expect(executed.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'mcp:notes:create_note',
      'gen_ai.tool.call.id': 'c2',
      'gen_ai.tool.type': 'extension',
      'tool_search.call.outcome': 'ok',
    });
    expect(executed.attributes).not.toHaveProperty('gen_ai.tool.call.arguments');
    expect(executed.attributes).not.toHaveProperty('error.type');

    const client = one('tools/call create_note');
    expect(parentOf(client)).toBe(executed.spanContext().spanId);
    expect(client.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'create_note', 'network.transport': 'tcp', 'tool_search.server': 'notes' });
    expect(client.attributes['mcp.protocol.version']).toEqual(expect.any(String));
    expect(client.attributes['jsonrpc.request.id']).toMatch(/^\d+$/);
    // A 2025-era HTTP connection has a session; its id is on the span.
    expect(client.attributes['mcp.session.id']).toEqual(expect.any(String));

    const received = upstream.calls.at(-1);
    expect(received?.name).toBe('create_note');
    const traceparent = String(received?.meta?.['traceparent']);
    expect(traceparent).toBe(`00-${client.spanContext().traceId}-${client.spanContext().spanId}-01`);
  });

  it('records a blocked call with its outcome and error type, and counts calls, searches and the called rank', async () => {
    const session = await openHost();
    await session.execute({ name: 'tool_search', args: { query: 'weather forecast for a city' }, toolCallId: 's1' });
    await session.execute({ name: 'tool_call', args: { id: 'openclaw:core:get_weather', args: { city: 'Oslo' } }, toolCallId: 'c1' });
    const blocked = await session.execute({ name: 'tool_call', args: { id: 'openclaw:core:exec_shell', args: { command: 'ls' } }, toolCallId: 'c2' });
    expect(blocked.status).not.toBe('ok');
    await session.execute({ name: 'tool_search', args: { query: 'zzqx qqvv' }, toolCallId: 's2' });
    await session.close();

    const shell = one('execute_tool openclaw:core:exec_shell');
    expect(blocked.status).toBe('blocked');
    expect(shell.attributes['tool_search.call.outcome']).toBe('denied');
    expect(shell.attributes['error.type']).toBe('denied');
    expect(shell.status.code).toBe(2);
    expect(ran).not.toContain('exec_shell');

    const resource = await collected();
    const calls = points(resource, 'tool_search.calls');
    expect(calls).toEqual(
      expect.arrayContaining([
        { attributes: { 'tool_search.call.outcome': 'ok', 'tool_search.call.via': 'tool_call', 'tool_search.tool.source': 'openclaw' }, value: expect.any(Number) },
        { attributes: { 'tool_search.call.outcome': 'denied', 'tool_search.call.via': 'tool_call', 'tool_search.tool.source': 'openclaw' }, value: expect.any(Number) },
      ]),
    );
    const searches = points(resource, 'tool_search.searches').find((point) => point.attributes['tool_search.search.via'] === 'tool_search');
    expect(searches?.value).toBeGreaterThanOrEqual(2);
    expect(points(resource, 'tool_search.searches.empty').length + points(resource, 'tool_search.searches.weak').length).toBeGreaterThan(0);
    // get_weather was the first hit of the search before it (rank 1); exec_shell was not among its hits (rank 0).
    const rank = points(resource, 'tool_search.call.search_rank')[0]?.value as { count: number; min?: number; max?: number };
    expect(rank).toMatchObject({ min: 0, max: 1 });
    const gauge = points(resource, 'tool_search.catalog.tools');
    expect(gauge).toEqual(expect.arrayContaining([{ attributes: { 'tool_search.tool.source': 'openclaw' }, value: 2 }]));
    expect(points(resource, 'tool_search.upstream.up')).toEqual(expect.arrayContaining([{ attributes: { 'tool_search.server': 'notes' }, value: 1 }]));
    const client = points(resource, 'mcp.client.operation.duration');
    expect(client.length).toBeGreaterThan(0);
  });

  it('records arguments, results and query text only when opted in', async () => {
    const session = await openHost({ recordArguments: true, recordResults: true, recordQueries: true });
    await session.execute({ name: 'tool_search', args: { query: 'weather' }, toolCallId: 's1' });
    await session.execute({ name: 'tool_call', args: { id: 'openclaw:core:get_weather', args: { city: 'Oslo' } }, toolCallId: 'c1' });
    expect(one('tool_search.search').attributes['tool_search.query']).toBe('weather');
    const executed = one('execute_tool openclaw:core:get_weather');
    expect(executed.attributes['gen_ai.tool.call.arguments']).toBe('{"city":"Oslo"}');
    expect(String(executed.attributes['gen_ai.tool.call.result'])).toContain('rain');
  });
});
