// A server that serves only protocol revision 2026-07-28 (SDK v2 `McpServer`, 2025 openings refused), over stdio
// and Streamable HTTP, reached through `versionNegotiation: 'auto'`; the probe's cost on stdio, measured against
// a connect that a cached verdict spares it; `input_required` answered by the elicitation handler; list `ttlMs`.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModernServer, EXIT_ON_PROBE_SERVER_PATH, mcpFixtureConfig, MODERN_MCP_SERVER_PATH, until } from '@tool-search/test-utils';
import { connectMcpServer } from './connect-mcp-server.js';
import type { ElicitRequestParams } from '@modelcontextprotocol/client';
import { createEraVerdictCache } from './create-era-verdict-cache.js';
import type { McpServerConfig } from '../schemas.js';
import { scaledTimeout } from '@tool-search/property-settings';

/** Each request's timeout: it bounds a hang, and a loaded machine stretches how long a real server takes to answer. */
const REQUEST_TIMEOUT_MS = scaledTimeout(10_000);
/** The stdio era probe's wait: a 2026-07-28 server slower to start than the 5 s default would be read as 2025. */
const PROBE_TIMEOUT_MS = scaledTimeout(5_000);

const modernStdio: McpServerConfig = { name: 'modern', transport: 'stdio', command: process.execPath, args: [MODERN_MCP_SERVER_PATH] };

describe('connectMcpServer with a server that serves only 2026-07-28 (stdio)', () => {
  it('negotiates 2026-07-28 through server/discover, lists and calls its tools', async () => {
    const connection = await connectMcpServer(modernStdio, { requestTimeoutMs: REQUEST_TIMEOUT_MS, stdioEraProbeTimeoutMs: PROBE_TIMEOUT_MS });
    try {
      expect(connection.status).toBe('connected');
      expect(connection.protocolVersion).toBe('2026-07-28');
      expect(connection.serverInfo).toMatchObject({ name: 'modern-fixture' });
      expect(connection.tools().map((tool) => tool.name)).toEqual(['echo', 'deploy', 'grow']);
      expect(await connection.callTool('echo', { text: 'hi' })).toEqual({ ok: true, parts: [{ type: 'text', text: 'hi' }], result: 'hi', isError: false });
    } finally {
      await connection.close();
    }
  });

  it('follows list changes on a subscriptions/listen stream (nothing arrives unsolicited in 2026-07-28)', async () => {
    const changes: { added: string[]; removed: string[] }[] = [];
    const connection = await connectMcpServer(modernStdio, {
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      stdioEraProbeTimeoutMs: PROBE_TIMEOUT_MS,
      onToolsChanged: (change) => changes.push({ added: change.added.map((tool) => tool.name), removed: change.removed }),
    });
    try {
      expect(await connection.callTool('grow', {})).toMatchObject({ ok: true, result: 'added grown' });
      await until(() => changes.length > 0, 'the list change to arrive', scaledTimeout(4_000));
      expect(changes).toEqual([{ added: ['grown'], removed: [] }]);
      expect(connection.tools().map((tool) => tool.name)).toContain('grown');
    } finally {
      await connection.close();
    }
  });

  it("answers the server's input_required through the elicitation handler and retries the call", async () => {
    const asked: ElicitRequestParams[] = [];
    const keys: Array<string | undefined> = [];
    const connection = await connectMcpServer(modernStdio, {
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      stdioEraProbeTimeoutMs: PROBE_TIMEOUT_MS,
      onElicitation: async (request, context) => {
        asked.push(request);
        keys.push(context.inputKey);
        return { action: 'accept', content: { confirm: true } };
      },
    });
    try {
      expect(await connection.callTool('deploy', { env: 'prod' })).toMatchObject({ ok: true, isError: false, result: 'Deployed to prod' });
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({ message: 'Deploy to prod?' });
      // The server's own key for its question, for a front that passes questions on.
      expect(keys).toEqual(['confirm']);
    } finally {
      await connection.close();
    }
  });

  it('declines input_required by default, so the tool reports the decline', async () => {
    const connection = await connectMcpServer(modernStdio, { requestTimeoutMs: REQUEST_TIMEOUT_MS, stdioEraProbeTimeoutMs: PROBE_TIMEOUT_MS });
    try {
      expect(await connection.callTool('deploy', { env: 'prod' })).toMatchObject({ ok: true, isError: true, result: 'Not deployed to prod: decline' });
    } finally {
      await connection.close();
    }
  });

  it('probes once per server: a cached verdict connects without server/discover, for either era (cost printed)', async () => {
    const timed = async (config: McpServerConfig, eraVerdicts: ReturnType<typeof createEraVerdictCache>) => {
      const started = performance.now();
      const connection = await connectMcpServer(config, { requestTimeoutMs: REQUEST_TIMEOUT_MS, stdioEraProbeTimeoutMs: PROBE_TIMEOUT_MS, eraVerdicts });
      const ms = performance.now() - started;
      const protocolVersion = connection.protocolVersion;
      await connection.close();
      return { ms, protocolVersion };
    };
    const rows: string[] = [];
    for (const [label, config] of [
      ['2026-07-28 server', modernStdio],
      ['2025 server', mcpFixtureConfig('legacy')],
    ] as const) {
      await timed(config, createEraVerdictCache()); // warm-up: the first start of a server also loads its modules from disk
      const verdicts = createEraVerdictCache();
      const probed = await timed(config, verdicts);
      expect(probed.protocolVersion).toMatch(label.startsWith('2026') ? /^2026-07-28$/ : /^2025-/);
      expect(verdicts.read()?.kind).toBe(label.startsWith('2026') ? 'modern' : 'legacy');
      const cached = await timed(config, verdicts);
      expect(cached.protocolVersion).toBe(probed.protocolVersion);
      rows.push(`${label.padEnd(18)} probed connect ${probed.ms.toFixed(0).padStart(5)} ms, with cached verdict ${cached.ms.toFixed(0).padStart(5)} ms (${probed.protocolVersion})`);
    }
    console.log(`stdio era probe cost (connect + first tools/list):\n${rows.join('\n')}`);
  }, scaledTimeout(30_000));

  it('forgets a cached verdict that no longer holds, and the next start probes again', async () => {
    const verdicts = createEraVerdictCache();
    verdicts.remember({ kind: 'legacy' });
    const stale = await connectMcpServer(modernStdio, { requestTimeoutMs: REQUEST_TIMEOUT_MS, stdioEraProbeTimeoutMs: PROBE_TIMEOUT_MS, eraVerdicts: verdicts });
    expect(stale.status).toBe('unavailable');
    expect(verdicts.read()).toBeUndefined();
    const fresh = await connectMcpServer(modernStdio, { requestTimeoutMs: REQUEST_TIMEOUT_MS, stdioEraProbeTimeoutMs: PROBE_TIMEOUT_MS, eraVerdicts: verdicts });
    try {
      expect(fresh.protocolVersion).toBe('2026-07-28');
      expect(verdicts.read()?.kind).toBe('modern');
    } finally {
      await fresh.close();
    }
  });
});

describe('connectMcpServer with a 2025 stdio server that exits on the era probe', () => {
  it('fails the first start, remembers the server as 2025, and the next start connects with initialize', async () => {
    const config: McpServerConfig = { name: 'rmcp-like', transport: 'stdio', command: process.execPath, args: [EXIT_ON_PROBE_SERVER_PATH] };
    const verdicts = createEraVerdictCache();
    const first = await connectMcpServer(config, { requestTimeoutMs: REQUEST_TIMEOUT_MS, stdioEraProbeTimeoutMs: PROBE_TIMEOUT_MS, eraVerdicts: verdicts });
    expect(first.status).toBe('unavailable');
    expect(verdicts.read()).toEqual({ kind: 'legacy' });
    const second = await connectMcpServer(config, { requestTimeoutMs: REQUEST_TIMEOUT_MS, stdioEraProbeTimeoutMs: PROBE_TIMEOUT_MS, eraVerdicts: verdicts });
    try {
      expect(second.status).toBe('connected');
      expect(second.protocolVersion).toMatch(/^2025-/);
      expect(await second.callTool('ping-back', {})).toMatchObject({ ok: true, result: 'pong' });
    } finally {
      await second.close();
    }
  });
});

describe('createEraVerdictCache', () => {
  it('drops a verdict past its age', () => {
    let now = 1_000;
    const verdicts = createEraVerdictCache({ maxAgeMs: 100, now: () => now });
    verdicts.remember({ kind: 'legacy' });
    now += 99;
    expect(verdicts.read()).toEqual({ kind: 'legacy' });
    now += 1;
    expect(verdicts.read()).toBeUndefined();
  });
});

describe('connectMcpServer with a server that serves only 2026-07-28 (Streamable HTTP)', () => {
  let handler: McpHttpHandler;
  let httpServer: Server;
  let url: string;
  const methods: string[] = [];

  beforeAll(async () => {
    handler = createMcpHandler(() => createModernServer(), { legacy: 'reject' });
    const nodeHandler = toNodeHandler(handler);
    httpServer = createServer((request, response) => {
      // The body is read here to count the methods that reach the server, then handed on already parsed.
      void readJson(request).then((body) => {
        if (body !== undefined && typeof body === 'object' && body !== null && 'method' in body) methods.push(String(body.method));
        // Node's IncomingMessage types `method` as possibly undefined, which the adapter's exact optional type does not take.
        return nodeHandler(request as Parameters<typeof nodeHandler>[0], response, body);
      });
    });
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    await handler.close();
    httpServer.closeAllConnections();
    await new Promise((resolve) => httpServer.close(resolve));
  });

  it('negotiates 2026-07-28 over HTTP, calls a tool, and answers input_required', async () => {
    const connection = await connectMcpServer(
      { name: 'modern-http', transport: 'http', url },
      { requestTimeoutMs: REQUEST_TIMEOUT_MS, stdioEraProbeTimeoutMs: PROBE_TIMEOUT_MS, onElicitation: async () => ({ action: 'accept', content: { confirm: true } }) },
    );
    try {
      expect(connection.status).toBe('connected');
      expect(connection.protocolVersion).toBe('2026-07-28');
      expect(methods).toContain('server/discover');
      expect(methods).not.toContain('initialize');
      expect(await connection.callTool('echo', { text: 'over http' })).toMatchObject({ ok: true, result: 'over http' });
      expect(await connection.callTool('deploy', { env: 'staging' })).toMatchObject({ ok: true, isError: false, result: 'Deployed to staging' });
    } finally {
      await connection.close();
    }
  });

  it("serves a re-list from the SDK's cache while the server's ttlMs holds", async () => {
    const connection = await connectMcpServer({ name: 'modern-http', transport: 'http', url }, { requestTimeoutMs: REQUEST_TIMEOUT_MS, stdioEraProbeTimeoutMs: PROBE_TIMEOUT_MS });
    try {
      const before = methods.filter((method) => method === 'prompts/list').length;
      expect(await connection.listPrompts()).toMatchObject({ ok: true, items: [{ name: 'greet' }] });
      expect(await connection.listPrompts()).toMatchObject({ ok: true, items: [{ name: 'greet' }] });
      expect(methods.filter((method) => method === 'prompts/list').length - before).toBe(1);
    } finally {
      await connection.close();
    }
  });
});

describe('connectMcpServer: liveness of a 2026-07-28 HTTP server', () => {
  it('checks a failed request with server/discover (that revision has no ping): up stays connected, gone becomes unavailable once', async () => {
    const handler = createMcpHandler(() => createModernServer(), { legacy: 'reject' });
    const nodeHandler = toNodeHandler(handler);
    const methods: string[] = [];
    const httpServer = createServer((request, response) => {
      void readJson(request).then((body) => {
        if (typeof body === 'object' && body !== null && 'method' in body) methods.push(String(body.method));
        // One request fails below JSON-RPC (a proxy's 502), while the server itself is fine.
        if (JSON.stringify(body).includes('"fail below json-rpc"')) {
          response.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway');
          return;
        }
        return nodeHandler(request as Parameters<typeof nodeHandler>[0], response, body);
      });
    });
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    const gone: string[] = [];
    const connection = await connectMcpServer(
      { name: 'leaving', transport: 'http', url: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp` },
      { requestTimeoutMs: REQUEST_TIMEOUT_MS, stdioEraProbeTimeoutMs: PROBE_TIMEOUT_MS, onUnavailable: (reason) => gone.push(reason) },
    );
    try {
      expect(connection.protocolVersion).toBe('2026-07-28');
      methods.length = 0;
      expect(await connection.callTool('echo', { text: 'fail below json-rpc' })).toMatchObject({ ok: false, code: 'failed' });
      expect(methods).toEqual(['tools/call', 'server/discover']);
      expect(connection.status).toBe('connected');
      expect(await connection.callTool('echo', { text: 'still here' })).toMatchObject({ ok: true, result: 'still here' });
      await handler.close();
      httpServer.closeAllConnections();
      await new Promise((resolve) => httpServer.close(resolve));
      expect(await connection.callTool('echo', { text: 'anyone?' })).toMatchObject({ ok: false, code: 'unavailable' });
      expect(connection.status).toBe('unavailable');
      expect(connection.failureKind).toBe('unreachable');
      expect(gone).toHaveLength(1);
      expect(gone[0]).toMatch(/^MCP server "leaving" is unreachable/);
    } finally {
      await connection.close();
    }
  });
});

async function readJson(request: IncomingMessage): Promise<unknown> {
  if (request.method !== 'POST') return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
