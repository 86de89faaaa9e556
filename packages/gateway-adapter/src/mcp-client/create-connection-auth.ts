// OAuth as one connection uses it: the provider its HTTP transport authenticates with (when the server config has
// `oauth` and the host gave a store), finishing an interactive authorization, and why the server is unauthorized.
import type { StreamableHTTPClientTransport, Transport } from '@modelcontextprotocol/client';
import type { ConnectMcpServerOptions } from './connect-mcp-server-options.js';
import type { McpServerConfig } from '../schemas.js';
import { createOAuthProvider, type McpOAuthProvider } from './create-oauth-provider.js';
import { createRefreshGuardFetch, type GuardedFetch } from './create-refresh-guard-fetch.js';

/** The OAuth side of one connection. */
export interface ConnectionAuth {
  readonly provider: McpOAuthProvider | undefined;
  /** The fetch of the connection's transport: its token refreshes serialized and never spent twice. */
  readonly fetch: GuardedFetch | undefined;
  /** Runs `authorize` for a pending authorization URL and exchanges the code; false when there is none or no code (the user gave up). */
  complete(transport: Transport): Promise<boolean>;
  /** The failure reason of a server that wants a token none could be had for (with a hint when OAuth is not set up). */
  unauthorizedReason(): string;
}

/** Creates the OAuth side of the connection to `config` (no provider for stdio, or without `oauth` or a store). */
export function createConnectionAuth(config: McpServerConfig, options: Pick<ConnectMcpServerOptions, 'oauth'>): ConnectionAuth {
  const oauthConfig = config.transport !== 'stdio' && config.oauth !== undefined ? (config.oauth === true ? {} : config.oauth) : undefined;
  const provider: McpOAuthProvider | undefined =
    oauthConfig !== undefined && options.oauth !== undefined && config.transport !== 'stdio'
      ? createOAuthProvider({
          server: config.name,
          serverUrl: config.url,
          config: oauthConfig,
          store: options.oauth.store,
          redirectUrl: options.oauth.redirectUrl,
        })
      : undefined;
  const guardedFetch =
    provider !== undefined && options.oauth !== undefined && config.transport !== 'stdio' ? createRefreshGuardFetch({ server: config.name, serverUrl: config.url, store: options.oauth.store }) : undefined;
  const hint = oauthConfig === undefined ? 'the server config has no "oauth"' : 'no OAuth store was given';
  const detail = provider === undefined ? ` (${hint})` : '';
  return {
    provider,
    fetch: guardedFetch,
    async complete(transport) {
      const authorizationUrl = provider?.takeAuthorizationUrl();
      if (authorizationUrl === undefined || options.oauth?.authorize === undefined) return false;
      const answer = await options.oauth.authorize({ server: config.name, authorizationUrl });
      if (answer === undefined) return false;
      const http = transport as StreamableHTTPClientTransport;
      if (typeof answer === 'string') {
        await http.finishAuth(answer);
        return true;
      }
      // The redirect's query: the SDK reads `code` and checks `iss` against the authorization server (RFC 9207).
      if (answer.get('code') === null) return false;
      await http.finishAuth(answer);
      return true;
    },
    unauthorizedReason: () => `MCP server "${config.name}" needs OAuth authorization and no valid token could be had${detail}`,
  };
}
