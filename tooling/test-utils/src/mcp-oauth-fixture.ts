import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import { getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import express, { type Response } from 'express';

/** A running OAuth-protected MCP server on 127.0.0.1, with the counters a test asserts on. */
export interface McpOAuthFixture {
  /** The MCP endpoint (Streamable HTTP). */
  url: string;
  /** Authorization codes issued, token exchanges, refreshes, and requests refused with 401. */
  counts: { authorizations: number; codeExchanges: number; refreshes: number; unauthorized: number };
  /** Makes every access token issued so far invalid (refresh tokens stay valid unless `refreshToo`). */
  revokeAll(options?: { refreshToo?: boolean }): void;
  /** Makes every access token issued so far expired (still known to the server, past its expiry time). */
  expireAll(): void;
  close(): Promise<void>;
}

/**
 * Starts an authorization server (the SDK's `mcpAuthRouter`: metadata, dynamic registration, authorize with PKCE,
 * token, refresh) and an MCP resource server behind `requireBearerAuth` on one local port. `authorize` consents at
 * once (the redirect carries the code), as a user clicking "allow" would. Access tokens live an hour
 * (`expireAll` makes them expired at once).
 */
export async function startMcpOAuthFixture(): Promise<McpOAuthFixture> {
  const ttl = 3_600;
  const counts = { authorizations: 0, codeExchanges: 0, refreshes: 0, unauthorized: 0 };
  const clients = new Map<string, OAuthClientInformationFull>();
  const codes = new Map<string, { clientId: string; params: AuthorizationParams }>();
  const accessTokens = new Map<string, { clientId: string; scopes: string[]; expiresAt: number }>();
  const refreshTokens = new Map<string, { clientId: string; scopes: string[] }>();

  const issue = (clientId: string, scopes: string[]): OAuthTokens => {
    const access = randomUUID();
    const refresh = randomUUID();
    accessTokens.set(access, { clientId, scopes, expiresAt: Math.floor(Date.now() / 1000) + ttl });
    refreshTokens.set(refresh, { clientId, scopes });
    return { access_token: access, token_type: 'bearer', expires_in: ttl, refresh_token: refresh, scope: scopes.join(' ') };
  };

  const provider: OAuthServerProvider = {
    clientsStore: {
      getClient: (clientId) => clients.get(clientId),
      registerClient: (client) => {
        const full = { ...client, client_id: randomUUID(), client_id_issued_at: Math.floor(Date.now() / 1000) } as OAuthClientInformationFull;
        clients.set(full.client_id, full);
        return full;
      },
    },
    async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response) {
      counts.authorizations += 1;
      const code = randomUUID();
      codes.set(code, { clientId: client.client_id, params });
      const target = new URL(params.redirectUri);
      target.searchParams.set('code', code);
      if (params.state !== undefined) target.searchParams.set('state', params.state);
      res.redirect(target.toString());
    },
    async challengeForAuthorizationCode(_client, code) {
      const entry = codes.get(code);
      if (!entry) throw new Error('unknown authorization code');
      return entry.params.codeChallenge;
    },
    async exchangeAuthorizationCode(client, code) {
      const entry = codes.get(code);
      if (!entry || entry.clientId !== client.client_id) throw new Error('invalid authorization code');
      codes.delete(code);
      counts.codeExchanges += 1;
      return issue(client.client_id, entry.params.scopes ?? []);
    },
    async exchangeRefreshToken(client, refreshToken) {
      const entry = refreshTokens.get(refreshToken);
      if (!entry || entry.clientId !== client.client_id) throw new InvalidGrantError('invalid refresh token');
      refreshTokens.delete(refreshToken);
      counts.refreshes += 1;
      return issue(client.client_id, entry.scopes);
    },
    async verifyAccessToken(token): Promise<AuthInfo> {
      const entry = accessTokens.get(token);
      if (!entry) throw new InvalidTokenError('unknown or revoked token');
      return { token, clientId: entry.clientId, scopes: entry.scopes, expiresAt: entry.expiresAt };
    },
  };

  const app = express();
  const listening: Server = await new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server));
  });
  const origin = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
  const mcpUrl = new URL('/mcp', origin);
  app.use(mcpAuthRouter({ provider, issuerUrl: new URL(origin), resourceServerUrl: mcpUrl, scopesSupported: ['mcp:tools'] }));
  const bearer = requireBearerAuth({ verifier: provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl) });
  app.use('/mcp', (request, response, next) => {
    response.on('finish', () => {
      if (response.statusCode === 401) counts.unauthorized += 1;
    });
    bearer(request, response, next);
  });
  app.all('/mcp', express.json(), async (request, response) => {
    // Stateless: one server per request, so every request is authenticated on its own.
    const server = new McpServer({ name: 'oauth-fixture', version: '1.0.0' });
    server.registerTool('whoami', { description: 'Say which client is calling.' }, async (extra) => ({
      content: [{ type: 'text', text: `client ${extra.authInfo?.clientId ?? 'unknown'}` }],
    }));
    const transport = new StreamableHTTPServerTransport({});
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, request.body);
  });

  return {
    url: mcpUrl.href,
    counts,
    revokeAll(revokeOptions = {}) {
      accessTokens.clear();
      if (revokeOptions.refreshToo) refreshTokens.clear();
    },
    expireAll() {
      const past = Math.floor(Date.now() / 1000) - 1;
      for (const entry of accessTokens.values()) entry.expiresAt = past;
    },
    async close() {
      listening.closeAllConnections();
      await new Promise((resolve) => listening.close(resolve));
    },
  };
}

/** What a browser does with an auto-consenting authorization server: follow the URL, read the code off the redirect. */
export async function followAuthorizationRedirect(authorizationUrl: URL): Promise<string | undefined> {
  return (await followAuthorizationRedirectQuery(authorizationUrl))?.get('code') ?? undefined;
}

/** The same, giving the redirect's whole query (`code`, and `iss` where the server sends one). */
export async function followAuthorizationRedirectQuery(authorizationUrl: URL): Promise<URLSearchParams | undefined> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  return location === null ? undefined : new URL(location).searchParams;
}
