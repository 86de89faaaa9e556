// The OAuth state of one server as the provider reads and writes it: loaded from the host's store, bound to the
// server URL it was obtained for, and written back whole on every change. `load({ fresh: true })` reads the store
// again: where the store is shared (replicas on one Redis), a token another process refreshed is used at once.
import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import type { OAuthTokenStore, StoredOAuthState } from './oauth-token-store.js';

/** What the SDK may ask to forget (`invalidateCredentials`). */
export type OAuthInvalidationScope = Parameters<NonNullable<OAuthClientProvider['invalidateCredentials']>>[0];

/** The stored field each partial invalidation forgets (`all` forgets every one); the others are kept. */
const FIELD_FORGOTTEN_BY: Record<Exclude<OAuthInvalidationScope, 'all'>, 'clientInformation' | 'tokens' | 'codeVerifier' | 'discoveryState'> = {
  client: 'clientInformation',
  tokens: 'tokens',
  verifier: 'codeVerifier',
  discovery: 'discoveryState',
};

/** The cached state of `server` at `serverUrl`. */
export interface OAuthStateCache {
  /** The state, from the cache; with `fresh`, read from the store again (what another process saved wins). */
  load(options?: { fresh?: boolean }): Promise<StoredOAuthState>;
  update(change: Partial<StoredOAuthState>): Promise<void>;
  invalidate(scope: OAuthInvalidationScope): Promise<void>;
}

/** Creates the cache of `server`'s state in `store`. */
export function createOAuthStateCache(options: { server: string; serverUrl: string; store: OAuthTokenStore }): OAuthStateCache {
  const { server, serverUrl, store } = options;
  let state: StoredOAuthState | undefined;
  const load = async (options: { fresh?: boolean } = {}): Promise<StoredOAuthState> => {
    if (state && options.fresh !== true) return state;
    const stored = await store.load(server);
    // Credentials obtained for another URL (the config changed) are not presented to this one.
    state = stored !== undefined && stored.serverUrl === serverUrl ? stored : { serverUrl };
    return state;
  };
  return {
    load,
    async update(change) {
      state = { ...(await load()), ...change, serverUrl };
      await store.save(server, state);
    },
    async invalidate(scope) {
      const presented = state;
      const current = await load({ fresh: true });
      // The SDK forgets tokens whose refresh failed (invalid_grant). When the store holds other tokens than the ones
      // this process presented, another process (a replica on the same store) refreshed them meanwhile, spending
      // the refresh token this one tried: they are kept, and the SDK's next attempt uses them.
      if (scope === 'tokens' && current.tokens !== undefined && current.tokens.refresh_token !== presented?.tokens?.refresh_token) return;
      const next: StoredOAuthState = { serverUrl };
      if (scope !== 'all') {
        for (const [kept, field] of Object.entries(FIELD_FORGOTTEN_BY)) {
          if (kept !== scope && current[field]) Object.assign(next, { [field]: current[field] });
        }
      }
      state = next;
      await store.save(server, next);
    },
  };
}
