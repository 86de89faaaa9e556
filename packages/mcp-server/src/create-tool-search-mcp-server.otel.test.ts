import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { createToolSearchHost, type ToolSearchHost } from '@tool-search/gateway-adapter';
import { startScriptedMcpServer, type ScriptedMcpServer } from '@tool-search/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolSearchMcpServer } from './create-tool-search-mcp-server.js';
import { scaledTimeout } from '@tool-search/property-settings';

// A client's trace continues through the front: the `traceparent` an MCP client sends in `params._meta` is the
// parent of the front's server span, the session's `execute_tool` span is the server span's child, and the
// upstream server receives the same trace in its own request's `_meta`.

const spans = new InMemorySpanExporter();
let upstream: ScriptedMcpServer;
let host: ToolSearchHost;

beforeAll(async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] }));
  upstream = await startScriptedMcpServer('notes', [{ name: 'create_note', description: 'Create a note with a title and a text.' }]);
  host = await createToolSearchHost({ sources: { mcp: [upstream.config()] }, startupTimeoutMs: 20_000 });
}, scaledTimeout(30_000));

afterAll(async () => {
  await host?.close();
  await upstream?.close();
  trace.disable();
  propagation.disable();
  context.disable();
});

const only = (name: string): ReadableSpan => {
  const found = spans.getFinishedSpans().filter((span) => span.name === name);
  expect(found.map((span) => span.name)).toEqual([name]);
  return found[0] as ReadableSpan;
};

describe('the front and OpenTelemetry', () => {
  it("makes the client's traceparent the parent of its server span, the execute_tool span and the upstream request", async () => {
    const front = await createToolSearchMcpServer({ host, config: { mode: 'tools' } });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await front.server.connect(serverSide);
    const client = new Client({ name: 'traced-client', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      const clientSpanId = '00f067aa0ba902b7';
      const result = await client.request(
        { method: 'tools/call', params: { name: 'tool_call', arguments: { id: 'mcp:notes:create_note', args: { text: 'hi' } }, _meta: { traceparent: `00-${traceId}-${clientSpanId}-01` } } },
        CallToolResultSchema,
      );
      expect(result.isError).not.toBe(true);

      const server = only('tools/call tool_call');
      expect(server.kind).toBe(1); // SpanKind.SERVER
      expect(server.spanContext().traceId).toBe(traceId);
      expect(server.parentSpanContext?.spanId).toBe(clientSpanId);
      expect(server.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'tool_call', 'network.transport': 'pipe' });
      expect(server.attributes['jsonrpc.request.id']).toEqual(expect.any(String));
      // An in-memory (stdio-like) 2025 connection has no session id.
      expect(server.attributes).not.toHaveProperty('mcp.session.id');

      const executed = only('execute_tool mcp:notes:create_note');
      expect(executed.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
      const upstreamCall = only('tools/call create_note');
      expect(upstreamCall.parentSpanContext?.spanId).toBe(executed.spanContext().spanId);
      expect(upstream.calls.at(-1)?.meta?.['traceparent']).toBe(`00-${traceId}-${upstreamCall.spanContext().spanId}-01`);
    } finally {
      await client.close();
      await front.close();
    }
  });
});
