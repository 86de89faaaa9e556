// The SDK's OAuthClientProvider for one HTTP MCP server, backed by the host's token store. The SDK runs the
// protocol (discovery, dynamic registration or a client id metadata document, PKCE, token exchange, refresh,
// step-up on insufficient_scope); this only keeps state and records where the user would have to go.
import type { OAuthClientProvider, OAuthDiscoveryState, OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/client';
import type { OAuthTokenStore } from './oauth-token-store.js';
import type { McpOAuthConfig } from '../schemas.js';
import { createOAuthStateCache } from './create-oauth-state-cache.js';
import { gatewayInstruments } from '../otel/gateway-instruments.js';

/** Where the browser comes back when neither the server config nor the host names a redirect URL. */
export const DEFAULT_OAUTH_REDIRECT_URL = 'http://localhost:33418/callback';

/** The provider plus what the connection needs to finish an interactive authorization. */
export interface McpOAuthProvider extends OAuthClientProvider {
  /** The authorization URL the SDK asked to open since the last call, if any (then cleared). */
  takeAuthorizationUrl(): URL | undefined;
}

/** Creates the provider for `server` at `serverUrl`. */
export function createOAuthProvider(options: {
  server: string;
  serverUrl: string;
  config: McpOAuthConfig;
  store: OAuthTokenStore;
  redirectUrl?: string | undefined;
}): McpOAuthProvider {
  const { server, config } = options;
  const machine = config.grantType === 'client_credentials';
  const redirectUrl = config.redirectUrl ?? options.redirectUrl ?? DEFAULT_OAUTH_REDIRECT_URL;
  const state = createOAuthStateCache(options);
  const configured = configuredClient(config);
  const clientMetadata = clientMetadataOf(config, { machine, redirectUrl });
  let pendingAuthorizationUrl: URL | undefined;

  return {
    get redirectUrl() {
      // No redirect means a non-interactive flow to the SDK (client credentials).
      return machine ? undefined : redirectUrl;
    },
    get clientMetadata() {
      return clientMetadata;
    },
    ...(config.clientMetadataUrl === undefined ? {} : { clientMetadataUrl: config.clientMetadataUrl }),
    async clientInformation() {
      const stored = (await state.load()).clientInformation;
      // A configured client id wins; what the SDK stored for it (bound to its issuer) is kept with it.
      if (configured !== undefined) return stored?.client_id === configured.client_id ? { ...configured, ...stored } : configured;
      return stored;
    },
    async saveClientInformation(clientInformation: OAuthClientInformationMixed) {
      await state.update({ clientInformation });
    },
    async tokens() {
      // Read on every request: a token another process (a replica on the same store) refreshed is used at once,
      // instead of this one spending the rotated refresh token again.
      return (await state.load({ fresh: true })).tokens;
    },
    async saveTokens(tokens: OAuthTokens) {
      // Tokens that replace stored ones are a refresh (or a new authorization after one failed): counted per server.
      const replaced = (await state.load()).tokens !== undefined;
      await state.update({ tokens });
      if (replaced) gatewayInstruments().oauthRefreshes.add(1, { 'tool_search.server': server });
    },
    redirectToAuthorization(authorizationUrl: URL) {
      pendingAuthorizationUrl = authorizationUrl;
    },
    async saveCodeVerifier(codeVerifier: string) {
      await state.update({ codeVerifier });
    },
    async codeVerifier() {
      const verifier = (await state.load()).codeVerifier;
      if (verifier === undefined) throw new Error(`No PKCE code verifier is stored for MCP server "${server}"`);
      return verifier;
    },
    async saveDiscoveryState(discoveryState: OAuthDiscoveryState) {
      await state.update({ discoveryState });
    },
    async discoveryState() {
      return (await state.load()).discoveryState;
    },
    async invalidateCredentials(scope) {
      await state.invalidate(scope);
    },
    takeAuthorizationUrl() {
      const url = pendingAuthorizationUrl;
      pendingAuthorizationUrl = undefined;
      return url;
    },
    ...(machine ? { prepareTokenRequest: clientCredentialsRequest } : {}),
  };
}

/** The client the config names, if it names one. */
function configuredClient(config: McpOAuthConfig): OAuthClientInformationMixed | undefined {
  return config.clientId === undefined ? undefined : { client_id: config.clientId, ...(config.clientSecret === undefined ? {} : { client_secret: config.clientSecret }) };
}

/** What the client registers as (dynamically, or in its metadata document). */
function clientMetadataOf(config: McpOAuthConfig, flow: { machine: boolean; redirectUrl: string }): OAuthClientMetadata {
  const { machine, redirectUrl } = flow;
  return {
    client_name: config.clientName ?? 'tool-search',
    redirect_uris: machine ? [] : [redirectUrl],
    grant_types: machine ? ['client_credentials'] : ['authorization_code', 'refresh_token'],
    response_types: machine ? [] : ['code'],
    token_endpoint_auth_method: config.clientSecret === undefined ? 'none' : 'client_secret_basic',
    ...(config.scopes === undefined ? {} : { scope: config.scopes.join(' ') }),
  };
}

/** The token request of the client credentials grant (only a machine client has one). */
function clientCredentialsRequest(scope?: string): URLSearchParams {
  const params = new URLSearchParams({ grant_type: 'client_credentials' });
  if (scope) params.set('scope', scope);
  return params;
}
