import { OpenTelemetry } from '@ai-sdk/otel';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { generateText, registerTelemetry, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callStep, textStep, useFixtureSessions } from './internal/fixtures.js';
import { toolSearchTools } from './tool-search-tools.js';

// An AI SDK 7 agent with its own OpenTelemetry integration (`@ai-sdk/otel`), recorded by the OTel SDK's in-memory
// exporter: the gateway's spans for a call through `toolSearchTools` sit under the AI SDK's own `execute_tool`
// span, and the upstream MCP request under the gateway's.

const spans = new InMemorySpanExporter();
const open = useFixtureSessions();

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
  trace.setGlobalTracerProvider(provider);
  registerTelemetry(new OpenTelemetry({ tracer: provider.getTracer('ai-sdk') }));
});
afterAll(() => {
  trace.disable();
  context.disable();
});

const only = (name: string): ReadableSpan => {
  const found = spans.getFinishedSpans().filter((span) => span.name === name);
  expect(found.map((span) => span.name)).toEqual([name]);
  return found[0] as ReadableSpan;
};

describe('toolSearchTools under the AI SDK telemetry', () => {
  it("nests the gateway's execute_tool and its upstream MCP span under the AI SDK's execute_tool span", async () => {
    const session = await open({ mode: 'tools' });
    const surface = session.modelSurface();
    const model = new MockLanguageModelV3({
      doGenerate: [
        callStep(['c1', 'tool_search', { query: 'echo a message back' }]),
        callStep(['c2', 'tool_call', { id: 'mcp:everything:echo', args: { message: 'traced' } }]),
        textStep('Done.'),
      ],
    });
    const result = await generateText({ model, system: surface.instructions, tools: toolSearchTools(session, { surface }), stopWhen: stepCountIs(5), prompt: 'Echo "traced".' });
    expect(result.text).toBe('Done.');

    const sdkSearch = only('execute_tool tool_search');
    const ourSearch = only('tool_search.search');
    expect(ourSearch.parentSpanContext?.spanId).toBe(sdkSearch.spanContext().spanId);

    const sdkCall = only('execute_tool tool_call');
    expect(sdkCall.attributes['gen_ai.tool.call.id']).toBe('c2');
    const ours = only('execute_tool mcp:everything:echo');
    expect(ours.parentSpanContext?.spanId).toBe(sdkCall.spanContext().spanId);
    expect(ours.spanContext().traceId).toBe(sdkCall.spanContext().traceId);
    expect(ours.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.call.id': 'c2', 'tool_search.call.outcome': 'ok' });
    const upstream = only('tools/call echo');
    expect(upstream.parentSpanContext?.spanId).toBe(ours.spanContext().spanId);
    expect(upstream.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'network.transport': 'pipe' });
  });
});
