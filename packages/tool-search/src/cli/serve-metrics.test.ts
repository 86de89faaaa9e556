// `tool-search serve --http` exposes the gateway's OpenTelemetry metrics as Prometheus text at /metrics, behind
// the endpoint's Host checks and a token of its own (never the MCP clients' token: the metrics name every server
// and count every tool, whatever a client's policy admits); the text is checked by Prometheus's own parser
// (`promtool check metrics`, from the distribution's `prometheus` package, which the test run installs).
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { urlPrinted } from './url-printed.js';
import { scaledTimeout } from '@tool-search/property-settings';

const require = createRequire(import.meta.url);
const BIN = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const TOKEN = 'client-test-token';
const METRICS_TOKEN = 'metrics-test-token';
/** The environment without the token variables (each case sets its own). */
const { TOOL_SEARCH_TOKEN: _token, TOOL_SEARCH_METRICS_TOKEN: _metrics, ...BASE_ENV } = process.env;

let work: string;
beforeAll(() => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build the package first (pnpm --filter tool-search build)`);
  work = mkdtempSync(join(tmpdir(), 'tool-search-metrics-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `promtool check metrics` on `text`: its exit code and what it printed. */
function promtool(text: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = execFile('promtool', ['check', 'metrics'], (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code ?? 1), output: `${stdout}${stderr}` }));
    child.stdin?.end(text);
  });
}

describe('tool-search serve --http: /metrics', () => {
  it('answers Prometheus text that promtool parses, with the calls, searches, catalog and MCP durations, only with the metrics token', { timeout: scaledTimeout(60_000) }, async () => {
    const config = join(work, 'config.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } }, toolSearch: { mode: 'tools' } }));
    const child = spawn(process.execPath, [BIN, 'serve', '--config', config, '--http', '127.0.0.1:0', '--json'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...BASE_ENV, TOOL_SEARCH_TOKEN: TOKEN, TOOL_SEARCH_METRICS_TOKEN: METRICS_TOKEN } });
    try {
      const url = await urlPrinted(child);
      const client = new Client({ name: 'metrics-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
      await client.callTool({ name: 'tool_search', arguments: { query: 'echo a message' } });
      await client.callTool({ name: 'tool_call', arguments: { id: 'mcp:everything:echo', args: { message: 'counted' } } });
      await client.close();

      const metricsUrl = new URL('/metrics', url);
      expect((await fetch(metricsUrl)).status).toBe(401);
      expect((await fetch(metricsUrl, { headers: { Authorization: 'Bearer wrong' } })).status).toBe(401);
      // The clients' token opens the MCP endpoint, never /metrics.
      const withClientToken = await fetch(metricsUrl, { headers: { Authorization: `Bearer ${TOKEN}` } });
      expect(withClientToken.status).toBe(401);
      expect(await withClientToken.text()).toContain("not the MCP clients' token");
      expect((await fetch(metricsUrl, { method: 'POST', headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(405);
      // And the metrics token opens /metrics, never the MCP endpoint.
      expect((await fetch(url, { method: 'POST', headers: { Authorization: `Bearer ${METRICS_TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' })).status).toBe(401);
      const scraped = await fetch(metricsUrl, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(scraped.status).toBe(200);
      expect(scraped.headers.get('content-type')).toMatch(/^text\/plain/);
      const text = await scraped.text();

      const checked = await promtool(text);
      expect(checked, checked.output).toMatchObject({ code: 0 });
      const sample = (pattern: RegExp) => text.split('\n').find((line) => !line.startsWith('#') && pattern.test(line));
      expect(sample(/^tool_search_calls_total\{.*tool_search_call_outcome="ok".*\} 1$/)).toBeDefined();
      expect(sample(/^tool_search_searches_total\{.*tool_search_search_via="tool_search".*\} 1$/)).toBeDefined();
      expect(sample(/^tool_search_catalog_tools\{tool_search_tool_source="mcp".*\} [1-9]\d*$/)).toBeDefined();
      expect(sample(/^tool_search_upstream_up\{tool_search_server="everything".*\} 1$/)).toBeDefined();
      expect(sample(/^tool_search_surface_size_count\{.*tool_search_mode="tools".*\} [1-9]\d*$/)).toBeDefined();
      expect(sample(/^mcp_client_operation_duration_count\{.*mcp_method_name="tools\/call".*\} 1$/)).toBeDefined();
      expect(sample(/^mcp_server_operation_duration_count\{.*mcp_method_name="tools\/call".*mcp_protocol_version="2025-11-25".*\} 2$/)).toBeDefined();
      // The semantic conventions' buckets, in seconds (the exporter names the metric without its unit).
      expect(sample(/^mcp_client_operation_duration_bucket\{.*le="0\.01".*\}/)).toBeDefined();
      expect(sample(/^mcp_client_operation_duration_bucket\{.*le="300".*\}/)).toBeDefined();
    } finally {
      child.kill('SIGTERM');
    }
  });
  it('refuses /metrics with 403 when clients need a token and /metrics has none of its own, the clients\' token included', { timeout: scaledTimeout(60_000) }, async () => {
    const config = join(work, 'empty.json');
    writeFileSync(config, JSON.stringify({ mcpServers: {} }));
    const child = spawn(process.execPath, [BIN, 'serve', '--config', config, '--http', '127.0.0.1:0', '--json'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...BASE_ENV, TOOL_SEARCH_TOKEN: TOKEN } });
    try {
      const metricsUrl = new URL('/metrics', await urlPrinted(child));
      for (const headers of [{}, { Authorization: `Bearer ${TOKEN}` }]) {
        const refused = await fetch(metricsUrl, { headers });
        expect(refused.status).toBe(403);
        expect(await refused.text()).toContain("takes a token of its own (metricsToken), never the MCP clients' token");
      }
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('answers /metrics without a token on loopback when no client needs one either, behind the Host check', { timeout: scaledTimeout(60_000) }, async () => {
    const config = join(work, 'empty.json');
    writeFileSync(config, JSON.stringify({ mcpServers: {} }));
    const child = spawn(process.execPath, [BIN, 'serve', '--config', config, '--http', '127.0.0.1:0', '--json'], { stdio: ['ignore', 'pipe', 'pipe'], env: BASE_ENV });
    try {
      const metricsUrl = new URL('/metrics', await urlPrinted(child));
      const scraped = await fetch(metricsUrl);
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('tool_search_catalog_tools');
      // DNS-rebinding protection: a page whose name points here sends its own Host.
      const { request } = await import('node:http');
      const status = await new Promise<number>((resolve, reject) => {
        request(metricsUrl, { headers: { host: `evil.example:${metricsUrl.port}` } }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });
      expect(status).toBe(403);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
