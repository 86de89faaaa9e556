// The SDK's OAuthClientProvider for one HTTP MCP server, backed by the host's token store. The SDK runs the
// protocol (discovery, dynamic registration or a client id metadata document, PKCE, token exchange, refresh,
// step-up on insufficient_scope); this only keeps state and records where the user would have to go.
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { OAuthTokenStore, StoredOAuthState } from '../oauth-token-store.js';
import type { McpOAuthConfig } from '../schemas.js';

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
  redirectUrl?: string;
}): McpOAuthProvider {
  const { server, serverUrl, config, store } = options;
  const machine = config.grantType === 'client_credentials';
  const redirectUrl = config.redirectUrl ?? options.redirectUrl ?? DEFAULT_OAUTH_REDIRECT_URL;
  let state: StoredOAuthState | undefined;
  let pendingAuthorizationUrl: URL | undefined;

  const load = async (): Promise<StoredOAuthState> => {
    if (state) return state;
    const stored = await store.load(server);
    // Credentials obtained for another URL (the config changed) are not presented to this one.
    state = stored !== undefined && stored.serverUrl === serverUrl ? stored : { serverUrl };
    return state;
  };
  const update = async (change: Partial<StoredOAuthState>): Promise<void> => {
    state = { ...(await load()), ...change, serverUrl };
    await store.save(server, state);
  };
  const configured: OAuthClientInformationMixed | undefined =
    config.clientId === undefined ? undefined : { client_id: config.clientId, ...(config.clientSecret === undefined ? {} : { client_secret: config.clientSecret }) };

  const clientMetadata: OAuthClientMetadata = {
    client_name: config.clientName ?? 'tool-search',
    redirect_uris: machine ? [] : [redirectUrl],
    grant_types: machine ? ['client_credentials'] : ['authorization_code', 'refresh_token'],
    response_types: machine ? [] : ['code'],
    token_endpoint_auth_method: config.clientSecret === undefined ? 'none' : 'client_secret_basic',
    ...(config.scopes === undefined ? {} : { scope: config.scopes.join(' ') }),
  };

  const provider: McpOAuthProvider = {
    get redirectUrl() {
      // No redirect means a non-interactive flow to the SDK (client credentials).
      return machine ? undefined : redirectUrl;
    },
    get clientMetadata() {
      return clientMetadata;
    },
    ...(config.clientMetadataUrl === undefined ? {} : { clientMetadataUrl: config.clientMetadataUrl }),
    async clientInformation() {
      const stored = (await load()).clientInformation;
      // A configured client id wins; what the SDK stored for it (bound to its issuer) is kept with it.
      if (configured !== undefined) return stored?.client_id === configured.client_id ? { ...configured, ...stored } : configured;
      return stored;
    },
    async saveClientInformation(clientInformation: OAuthClientInformationMixed) {
      await update({ clientInformation });
    },
    async tokens() {
      return (await load()).tokens;
    },
    async saveTokens(tokens: OAuthTokens) {
      await update({ tokens });
    },
    redirectToAuthorization(authorizationUrl: URL) {
      pendingAuthorizationUrl = authorizationUrl;
    },
    async saveCodeVerifier(codeVerifier: string) {
      await update({ codeVerifier });
    },
    async codeVerifier() {
      const verifier = (await load()).codeVerifier;
      if (verifier === undefined) throw new Error(`No PKCE code verifier is stored for MCP server "${server}"`);
      return verifier;
    },
    async saveDiscoveryState(discoveryState: OAuthDiscoveryState) {
      await update({ discoveryState });
    },
    async discoveryState() {
      return (await load()).discoveryState;
    },
    async invalidateCredentials(scope) {
      const current = await load();
      const next: StoredOAuthState = { serverUrl };
      if (scope !== 'all') {
        if (scope !== 'client' && current.clientInformation) next.clientInformation = current.clientInformation;
        if (scope !== 'tokens' && current.tokens) next.tokens = current.tokens;
        if (scope !== 'verifier' && current.codeVerifier) next.codeVerifier = current.codeVerifier;
        if (scope !== 'discovery' && current.discoveryState) next.discoveryState = current.discoveryState;
      }
      state = next;
      await store.save(server, next);
    },
    takeAuthorizationUrl() {
      const url = pendingAuthorizationUrl;
      pendingAuthorizationUrl = undefined;
      return url;
    },
    ...(machine
      ? {
          prepareTokenRequest(scope?: string) {
            const params = new URLSearchParams({ grant_type: 'client_credentials' });
            if (scope) params.set('scope', scope);
            return params;
          },
        }
      : {}),
  };
  return provider;
}
