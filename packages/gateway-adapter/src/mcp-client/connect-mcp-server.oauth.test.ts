import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { metrics } from '@opentelemetry/api';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { connectMcpServer, type McpServerConnection } from './connect-mcp-server.js';
import { createFileTokenStore } from './create-file-token-store.js';
import { createMemoryTokenStore } from './oauth-token-store.js';
import type { McpServerConfig } from '../schemas.js';
import { followAuthorizationRedirect, followAuthorizationRedirectQuery, startMcpOAuthFixture, type McpOAuthFixture } from '@tool-search/test-utils';

// A real authorization server and a protected MCP server (the SDK's own server-side auth), spoken to by our
// connection through the SDK's client-side OAuth: discovery, dynamic registration, PKCE, refresh.
let fixture: McpOAuthFixture;
let folder: string;
const open: McpServerConnection[] = [];
beforeEach(async () => {
  folder = mkdtempSync(join(tmpdir(), 'ts-oauth-'));
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
  await fixture?.close();
  rmSync(folder, { recursive: true, force: true });
});

const config = (): McpServerConfig => ({ name: 'secured', transport: 'http', url: fixture.url, oauth: { scopes: ['mcp:tools'] } });
async function connect(options: Parameters<typeof connectMcpServer>[1]) {
  const connection = await connectMcpServer(config(), { requestTimeoutMs: 10_000, ...options });
  open.push(connection);
  return connection;
}

describe('connectMcpServer with OAuth', () => {
  it('authorizes once through the callback, stores the tokens in 0600 files, and reuses them later without asking', async () => {
    fixture = await startMcpOAuthFixture();
    const store = createFileTokenStore(join(folder, 'tokens'));
    const asked: string[] = [];
    const first = await connect({
      oauth: {
        store,
        authorize: async ({ server, authorizationUrl }) => {
          asked.push(server);
          return followAuthorizationRedirect(authorizationUrl);
        },
      },
    });
    expect(first.status).toBe('connected');
    expect(asked).toEqual(['secured']);
    expect(await first.callTool('whoami', {})).toMatchObject({ ok: true, parts: [{ type: 'text', text: expect.stringMatching(/^client [0-9a-f-]{36}$/) }] });
    const file = join(folder, 'tokens', 'secured.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(folder, 'tokens')).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { serverUrl: string; tokens: { access_token: string; refresh_token: string } };
    expect(stored.serverUrl).toBe(fixture.url);
    expect(stored.tokens.refresh_token).toEqual(expect.any(String));
    await first.close();

    const second = await connect({ oauth: { store } });
    expect(second.status).toBe('connected');
    expect(fixture.counts).toMatchObject({ authorizations: 1, codeExchanges: 1 });
  });

  it('refreshes an expired access token, keeps the new one, and counts the refresh', async () => {
    const reader = new PeriodicExportingMetricReader({ exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE), exportIntervalMillis: 3_600_000 });
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
    onTestFinished(() => metrics.disable());
    fixture = await startMcpOAuthFixture();
    const store = createMemoryTokenStore();
    const connection = await connect({ oauth: { store, authorize: async ({ authorizationUrl }) => followAuthorizationRedirect(authorizationUrl) } });
    const before = (await store.load('secured'))?.tokens?.access_token;
    // Expired on the server's clock, as a token past its lifetime is (no wall-clock wait, so a slow machine cannot
    // make the token expire during the connection's own start-up).
    fixture.expireAll();
    expect(await connection.callTool('whoami', {})).toMatchObject({ ok: true, isError: false });
    expect(fixture.counts).toMatchObject({ authorizations: 1, refreshes: 1 });
    const after = (await store.load('secured'))?.tokens?.access_token;
    expect(after).toEqual(expect.any(String));
    expect(after).not.toBe(before);
    const { resourceMetrics } = await reader.collect();
    const refreshes = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics).find((metric) => metric.descriptor.name === 'tool_search.oauth.refreshes');
    expect(refreshes?.dataPoints.map((point) => ({ attributes: point.attributes, value: point.value }))).toEqual([{ attributes: { 'tool_search.server': 'secured' }, value: 1 }]);
  });

  it('uses a token another connection on the same store refreshed, without refreshing again (replicas on one store)', async () => {
    fixture = await startMcpOAuthFixture();
    const store = createMemoryTokenStore();
    const replicaA = await connect({ oauth: { store, authorize: async ({ authorizationUrl }) => followAuthorizationRedirect(authorizationUrl) } });
    const replicaB = await connect({ oauth: { store } });
    fixture.expireAll();
    expect(await replicaA.callTool('whoami', {})).toMatchObject({ ok: true, isError: false });
    expect(fixture.counts).toMatchObject({ authorizations: 1, refreshes: 1 });
    // B cached the expired token and the refresh token A spent: it reads the store again before its request.
    expect(await replicaB.callTool('whoami', {})).toMatchObject({ ok: true, isError: false });
    // 401s: the first connection's before it was authorized, and A's expired token; none for B.
    expect(fixture.counts).toMatchObject({ authorizations: 1, refreshes: 1, unauthorized: 2 });
  });

  it('refreshes once for three connections on one store whose tokens expired at once: the others take its tokens', async () => {
    fixture = await startMcpOAuthFixture();
    const store = createMemoryTokenStore();
    const replicaA = await connect({ oauth: { store, authorize: async ({ authorizationUrl }) => followAuthorizationRedirect(authorizationUrl) } });
    const replicaB = await connect({ oauth: { store } });
    const replicaC = await connect({ oauth: { store } });
    fixture.expireAll();
    // All three present the expired token and get 401; their refreshes are serialized, and the second and third
    // find the refresh token they hold already replaced in the store: they take the stored tokens instead of
    // spending a refresh token the server rotated away (which would fail them with invalid_grant).
    const answers = await Promise.all([replicaA, replicaB, replicaC].map((connection) => connection.callTool('whoami', {})));
    for (const answer of answers) expect(answer).toMatchObject({ ok: true, isError: false });
    expect(fixture.counts).toMatchObject({ authorizations: 1, refreshes: 1 });
  });

  it("hands the redirect's whole query to the SDK, which exchanges its code", async () => {
    fixture = await startMcpOAuthFixture();
    const connection = await connect({ oauth: { store: createMemoryTokenStore(), authorize: async ({ authorizationUrl }) => followAuthorizationRedirectQuery(authorizationUrl) } });
    expect(connection.status).toBe('connected');
    expect(fixture.counts).toMatchObject({ authorizations: 1, codeExchanges: 1 });
  });

  it('never exchanges a code whose redirect names another authorization server (iss, RFC 9207)', async () => {
    fixture = await startMcpOAuthFixture();
    const connection = await connect({
      oauth: {
        store: createMemoryTokenStore(),
        authorize: async ({ authorizationUrl }) => {
          const query = await followAuthorizationRedirectQuery(authorizationUrl);
          query?.set('iss', 'https://issuer.invalid');
          return query;
        },
      },
    });
    expect(connection.status).not.toBe('connected');
    expect(fixture.counts).toMatchObject({ authorizations: 1, codeExchanges: 0 });
  });

  it('is unauthorized, naming the server, when no token is stored and nobody can be asked', async () => {
    fixture = await startMcpOAuthFixture();
    const reasons: string[] = [];
    const connection = await connect({ oauth: { store: createMemoryTokenStore() }, onUnavailable: (reason) => reasons.push(reason) });
    expect(connection.status).toBe('unauthorized');
    expect(connection.failureKind).toBe('unauthorized');
    expect(connection.failure).toBe('MCP server "secured" needs OAuth authorization and no valid token could be had');
    expect(await connection.callTool('whoami', {})).toEqual({ ok: false, code: 'unauthorized', message: connection.failure });
    expect(reasons).toEqual([]);
  });

  it('is unauthorized when the user does not complete the authorization', async () => {
    fixture = await startMcpOAuthFixture();
    const connection = await connect({ oauth: { store: createMemoryTokenStore(), authorize: async () => undefined } });
    expect(connection.status).toBe('unauthorized');
  });

  it('is unauthorized without an OAuth store or without oauth in the config, and says what is missing', async () => {
    fixture = await startMcpOAuthFixture();
    const connection = await connect({});
    expect(connection.status).toBe('unauthorized');
    expect(connection.failure).toBe('MCP server "secured" needs OAuth authorization and no valid token could be had (no OAuth store was given)');
    const plain = await connectMcpServer({ name: 'plain', transport: 'http', url: fixture.url }, { requestTimeoutMs: 10_000, oauth: { store: createMemoryTokenStore() } });
    open.push(plain);
    expect(plain.failure).toBe('MCP server "plain" needs OAuth authorization and no valid token could be had (the server config has no "oauth")');
  });

  it('goes unauthorized mid-session (once, through onUnavailable) when its tokens are revoked and cannot be renewed', async () => {
    fixture = await startMcpOAuthFixture();
    const events: string[] = [];
    let asked = 0;
    const connection = await connect({
      // The user authorizes the first time only.
      oauth: { store: createMemoryTokenStore(), authorize: async ({ authorizationUrl }) => (++asked === 1 ? followAuthorizationRedirect(authorizationUrl) : undefined) },
      onUnavailable: (reason, kind) => events.push(`${kind}: ${reason}`),
    });
    expect(connection.status).toBe('connected');
    fixture.revokeAll({ refreshToo: true });
    expect(await connection.callTool('whoami', {})).toEqual({
      ok: false,
      code: 'unauthorized',
      message: 'MCP server "secured" needs OAuth authorization and no valid token could be had',
    });
    expect(connection.status).toBe('unauthorized');
    expect(events).toEqual(['unauthorized: MCP server "secured" needs OAuth authorization and no valid token could be had']);
    expect(asked).toBe(2);
  });
});

describe('createFileTokenStore', () => {
  it('tightens a state file that others could read, and treats a corrupt one as absent', async () => {
    const { chmodSync, mkdirSync, writeFileSync } = await import('node:fs');
    const directory = join(folder, 'store');
    mkdirSync(directory, { recursive: true });
    writeFileSync(join(directory, 'loose.json'), JSON.stringify({ serverUrl: 'https://x.example/mcp' }));
    chmodSync(join(directory, 'loose.json'), 0o644);
    writeFileSync(join(directory, 'broken.json'), '{ not json');
    const store = createFileTokenStore(directory);
    expect(await store.load('loose')).toEqual({ serverUrl: 'https://x.example/mcp' });
    expect(statSync(join(directory, 'loose.json')).mode & 0o777).toBe(0o600);
    expect(await store.load('broken')).toBeUndefined();
    expect(await store.load('missing')).toBeUndefined();
    await store.delete('loose');
    expect(await store.load('loose')).toBeUndefined();
  });
});
