import type { OAuthDiscoveryState, OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/client';

/** What is kept per MCP server between runs: tokens, the registered client, discovery, a pending PKCE verifier. */
export interface StoredOAuthState {
  /** The server URL these credentials were obtained for; state for another URL is not used. */
  serverUrl: string;
  tokens?: OAuthTokens;
  clientInformation?: OAuthClientInformationMixed;
  codeVerifier?: string;
  discoveryState?: OAuthDiscoveryState;
}

/** Where OAuth state lives. The host chooses (a file store for a CLI, a secret manager for a service). */
export interface OAuthTokenStore {
  load(server: string): Promise<StoredOAuthState | undefined>;
  save(server: string, state: StoredOAuthState): Promise<void>;
  delete(server: string): Promise<void>;
  /**
   * Runs `refresh` while no other process sharing this store refreshes `server`'s tokens (a store shared by
   * replicas, such as Redis, has it). Without it, refreshes are serialized within this process only.
   */
  withRefreshLock?<T>(server: string, refresh: () => Promise<T>): Promise<T>;
}

/** A store in memory only (tests, short-lived hosts): nothing survives the process. */
export function createMemoryTokenStore(): OAuthTokenStore {
  const states = new Map<string, string>();
  return {
    async load(server) {
      const text = states.get(server);
      return text === undefined ? undefined : (JSON.parse(text) as StoredOAuthState);
    },
    async save(server, state) {
      states.set(server, JSON.stringify(state));
    },
    async delete(server) {
      states.delete(server);
    },
  };
}
