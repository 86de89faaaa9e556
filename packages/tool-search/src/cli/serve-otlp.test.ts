// `tool-search serve` sends its traces to an OTLP/HTTP endpoint named by the standard OTEL_* variables. The
// receiver here is a plain HTTP server that keeps what arrives at /v1/traces and decodes it: protobuf with the
// messages compiled from the official opentelemetry-proto definitions, JSON as OTLP maps them; an MCP client's
// traceparent is the parent of serve's spans, which reach the upstream server's request.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from './exit-codes.js';
import { urlPrinted } from './url-printed.js';
import { scaledTimeout } from '@tool-search/property-settings';

const require = createRequire(import.meta.url);
/** OTLP's trace request message, from the protobuf code compiled from the official opentelemetry-proto definitions. */
const { ExportTraceServiceRequest } = (require('@opentelemetry/otlp-proto-messages/build/src/generated/root.js') as {
  opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: { decode(bytes: Uint8Array): unknown } } } } } };
}).opentelemetry.proto.collector.trace.v1;
const BIN = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: Array<{ key: string; value: { stringValue?: string } }>;
}

let work: string;
let receiver: Server;
let receiverUrl: string;
const received: Array<{ contentType: string | undefined; body: Buffer }> = [];

beforeAll(async () => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build the package first (pnpm --filter tool-search build)`);
  work = mkdtempSync(join(tmpdir(), 'tool-search-otlp-'));
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url === '/v1/traces') received.push({ contentType: request.headers['content-type'], body: Buffer.concat(chunks) });
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  rmSync(work, { recursive: true, force: true });
});

/** Runs `serve --http` with `env`, calls echo through tool_call with a traceparent, stops it, and returns its exit code. */
async function serveOnce(env: Record<string, string>, traceparent: string): Promise<number | null> {
  const config = join(work, 'config.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } }, toolSearch: { mode: 'tools' } }));
  const child = spawn(process.execPath, [BIN, 'serve', '--config', config, '--http', '127.0.0.1:0', '--json'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    const url = await urlPrinted(child);
    const client = new Client({ name: 'otlp-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const result = await client.request(
      { method: 'tools/call', params: { name: 'tool_call', arguments: { id: 'mcp:everything:echo', args: { message: 'traced' } }, _meta: { traceparent } } },
      CallToolResultSchema,
    );
    expect(result.isError).not.toBe(true);
    await client.close();
  } finally {
    // Stopping flushes the batched spans before the process ends.
    child.kill('SIGTERM');
  }
  return exited;
}

describe('tool-search serve: traces over OTLP/HTTP', () => {
  it("exports serve's spans, the client's traceparent their parent, as OTLP JSON", { timeout: scaledTimeout(60_000) }, async () => {
    received.length = 0;
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const clientSpan = 'b7ad6b7169203331';
    const code = await serveOnce({ OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }, `00-${traceId}-${clientSpan}-01`);
    expect(code).toBe(0);
    expect(received.length).toBeGreaterThan(0);
    expect(received.every((entry) => entry.contentType?.startsWith('application/json'))).toBe(true);
    const spans: OtlpSpan[] = received.flatMap((entry) => {
      const request = JSON.parse(entry.body.toString('utf8')) as { resourceSpans: Array<{ resource: { attributes: unknown[] }; scopeSpans: Array<{ spans: OtlpSpan[] }> }> };
      return request.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans));
    });
    const named = (name: string) => {
      const found = spans.filter((span) => span.name === name);
      expect(found.map((span) => span.name)).toEqual([name]);
      return found[0] as OtlpSpan;
    };
    const server = named('tools/call tool_call');
    expect(server.traceId).toBe(traceId);
    expect(server.parentSpanId).toBe(clientSpan);
    const executed = named('execute_tool mcp:everything:echo');
    expect(executed.parentSpanId).toBe(server.spanId);
    const upstream = named('tools/call echo');
    expect(upstream.parentSpanId).toBe(executed.spanId);
    expect(upstream.attributes).toEqual(expect.arrayContaining([{ key: 'mcp.method.name', value: { stringValue: 'tools/call' } }]));
  });

  it('sends OTLP protobuf by default, decoded with the messages compiled from opentelemetry-proto', { timeout: scaledTimeout(60_000) }, async () => {
    received.length = 0;
    const traceId = '1bf92f3577b34da6a3ce929d0e0e4736';
    const clientSpan = '00f067aa0ba902b7';
    const code = await serveOnce({ OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl }, `00-${traceId}-${clientSpan}-01`);
    expect(code).toBe(0);
    expect(received.length).toBeGreaterThan(0);
    expect(received.every((entry) => entry.contentType === 'application/x-protobuf')).toBe(true);
    const spans = received.flatMap((entry) => {
      const request = ExportTraceServiceRequest.decode(entry.body) as unknown as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ traceId: Uint8Array; spanId: Uint8Array; parentSpanId: Uint8Array; name: string }> }> }> };
      return request.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans));
    });
    const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
    const server = spans.find((span) => span.name === 'tools/call tool_call');
    expect(server).toBeDefined();
    expect(hex(server!.traceId)).toBe(traceId);
    expect(hex(server!.parentSpanId)).toBe(clientSpan);
    const executed = spans.find((span) => span.name === 'execute_tool mcp:everything:echo');
    expect(hex(executed!.parentSpanId)).toBe(hex(server!.spanId));
  });

  it('refuses an OTLP protocol it cannot speak before any server starts, naming the variable', { timeout: scaledTimeout(30_000) }, async () => {
    const config = join(work, 'config.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } } }));
    const child = spawn(process.execPath, [BIN, 'serve', '--config', config, '--http', '127.0.0.1:0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
    });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(EXIT_CODES.config);
    expect(err).toContain('OTEL_EXPORTER_OTLP_PROTOCOL=grpc');
    expect(err).not.toContain('serving MCP');
  });
});
