// The fetch of one OAuth-protected connection, guarding its token refreshes. A server that rotates refresh tokens
// accepts each one once: when several requests (or several replicas on one store) find the access token expired
// at the same time, only the first refresh may use it. Refreshes of a server are serialized (in this process, and
// across processes with the store's `withRefreshLock`); each one first reads the store, and when another refresh
// already replaced the tokens (the refresh token presented, or the access token the server just refused), the
// stored tokens are the answer instead of a second refresh.
import type { OAuthTokenStore, StoredOAuthState } from './oauth-token-store.js';

/** The fetch signature the SDK's transports take. */
export type GuardedFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** The refreshes in line, per store and server: every connection of this process to a server on a store shares one. */
const REFRESH_QUEUES = new WeakMap<OAuthTokenStore, Map<string, Promise<unknown>>>();

/** Creates the fetch of `server`'s connection (`serverUrl`: state for another URL is not used). */
export function createRefreshGuardFetch(options: { server: string; serverUrl: string; store: OAuthTokenStore; fetch?: GuardedFetch }): GuardedFetch {
  const { server, serverUrl, store } = options;
  const send = options.fetch ?? ((input, init) => fetch(input, init));
  /** One refresh of `server` on `store` at a time in this process; the store's lock keeps other processes out. */
  const serialized = <T>(run: () => Promise<T>): Promise<T> => {
    const queues = REFRESH_QUEUES.get(store) ?? new Map<string, Promise<unknown>>();
    REFRESH_QUEUES.set(store, queues);
    const locked = () => (store.withRefreshLock === undefined ? run() : store.withRefreshLock(server, run));
    const next = (queues.get(server) ?? Promise.resolve()).then(locked, locked);
    queues.set(server, next.catch(() => undefined));
    return next;
  };
  /** The access token of this connection's last request answered 401: the one a refresh would replace. */
  let rejected: string | undefined;
  return async (input, init) => {
    const presented = refreshTokenOf(init);
    if (presented === undefined) {
      const response = await send(input, init);
      if (response.status === 401) rejected = bearerOf(init);
      return response;
    }
    return serialized(async () => {
      const stored = await store.load(server);
      const current = stored !== undefined && stored.serverUrl === serverUrl ? stored : undefined;
      // Replaced meanwhile: the stored refresh token is not the one presented (it was rotated), or the stored access
      // token is not the one the server just refused (a refresh that kept the refresh token).
      const replaced = current?.tokens !== undefined && (current.tokens.refresh_token !== presented || (rejected !== undefined && current.tokens.access_token !== rejected));
      if (current?.tokens !== undefined && replaced) {
        // Refreshed by another request or replica meanwhile: its tokens, as the token endpoint would answer.
        const { issuer: _issuer, ...tokens } = current.tokens as StoredOAuthState['tokens'] & { issuer?: unknown };
        return new Response(JSON.stringify(tokens), { status: 200, headers: { 'Content-Type': 'application/json' } });
      }
      const response = await send(input, init);
      if (!response.ok) return response;
      // Saved before the lock is released, so the next refresh in line reads them (the SDK saves them again).
      const body = await response.text();
      try {
        const tokens = JSON.parse(body) as NonNullable<StoredOAuthState['tokens']>;
        if (typeof tokens.access_token === 'string') await store.save(server, { ...(current ?? { serverUrl }), serverUrl, tokens });
      } catch {
        // Not JSON: the SDK reports the token endpoint's answer as it is.
      }
      return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    });
  };
}

/** The bearer token a request sends, if any. */
function bearerOf(init: RequestInit | undefined): string | undefined {
  const header = new Headers(init?.headers).get('authorization');
  return header?.toLowerCase().startsWith('bearer ') ? header.slice(7) : undefined;
}

/** The refresh token a token request presents (`grant_type=refresh_token`), else undefined. */
function refreshTokenOf(init: RequestInit | undefined): string | undefined {
  const body = init?.body;
  if (init?.method !== 'POST' || body === undefined || body === null) return undefined;
  const params = body instanceof URLSearchParams ? body : typeof body === 'string' ? new URLSearchParams(body) : undefined;
  if (params?.get('grant_type') !== 'refresh_token') return undefined;
  return params.get('refresh_token') ?? undefined;
}
