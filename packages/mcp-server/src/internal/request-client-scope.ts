// Which client a request on the 2026-07-28 path comes from (its remote address), for the bounds kept per client.
// That path has no session to hold it, and the SDK calls the handlers without the Node request: the HTTP front runs
// each request inside this scope, and the handlers read it (async context follows the awaits in between).
import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<string>();

/** Runs `work` as a request of `client`. */
export function runAsClient<T>(client: string, work: () => T): T {
  return scope.run(client, work);
}

/** The client of the request being handled; `fallback` outside any (stdio: one client). */
export function currentClient(fallback = 'local'): string {
  return scope.getStore() ?? fallback;
}
