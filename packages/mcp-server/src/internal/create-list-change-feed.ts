// The list changes of the 2026-07-28 front. Its requests each open and close a tool-search session, so none lives
// long enough to see the catalog change: the feed keeps one session open, opened with the same policy and context
// as the requests' (every modern request of a front is answered for the same principal), and tells its listeners
// which lists changed as that session sees them (see watch-list-changes.ts: refused tools never count).
import type { ToolSearchHost, ToolSearchSession } from '@tool-search/gateway-adapter';
import type { Logger } from 'pino';
import type { UpstreamAdmission } from './create-session-upstream.js';
import { watchListChanges, type ListChangeId, type ListKind } from './watch-list-changes.js';

export interface ListChangeFeed {
  /** Calls `listener` with each list that changes from now on (and its change id); opens the watching session with the first listener. */
  subscribe(listener: (kind: ListKind, changeId: ListChangeId) => void): () => void;
  /** Closes the watching session; no listener is called after. */
  close(): Promise<void>;
}

/**
 * `open` opens the watching session with the given catalog-change callback (the requests' session options);
 * `admission` says which servers' resources and prompts that session may list (its policy's, as the requests').
 */
export function createListChangeFeed(host: ToolSearchHost, open: (onCatalogChange: () => void) => Promise<ToolSearchSession>, log: Logger, admission: (session: ToolSearchSession) => UpstreamAdmission): ListChangeFeed {
  const listeners = new Set<(kind: ListKind, changeId: ListChangeId) => void>();
  let closed = false;
  let opened: Promise<ToolSearchSession | undefined> | undefined;
  const tell = (kind: ListKind, changeId: ListChangeId) => {
    log.debug({ list: kind, listeners: listeners.size }, 'list changed');
    for (const listener of [...listeners]) listener(kind, changeId);
  };
  const start = () =>
    (opened ??= (async () => {
      let check = () => undefined as void;
      const session = await open(() => check());
      if (closed) {
        await session.close();
        return undefined;
      }
      check = watchListChanges(host, session, tell, admission(session)).check;
      return session;
    })().catch((error: unknown) => {
      // Without the session no change is seen: listeners keep their streams, and clients re-list on their ttl.
      log.warn({ err: error instanceof Error ? error.message.slice(0, 300) : String(error) }, 'list change feed could not open its session');
      return undefined;
    }));
  return {
    subscribe(listener) {
      listeners.add(listener);
      void start();
      return () => void listeners.delete(listener);
    },
    async close() {
      closed = true;
      listeners.clear();
      await (await opened)?.close();
    },
  };
}
