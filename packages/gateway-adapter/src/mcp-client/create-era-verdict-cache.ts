// What one server's era turned out to be (SDK v2 `versionNegotiation: 'auto'` probes with `server/discover`), kept
// so a reconnect skips the probe. Freshness is ours to keep, as the SDK's gateway guide says: a stale modern
// verdict fails loudly at the first request (and is forgotten then), but a stale legacy verdict would succeed
// forever against an upgraded server, so every verdict is dated and dropped past `maxAgeMs`.
import type { PriorDiscovery } from '@modelcontextprotocol/client';

/** Default age past which a verdict is probed again. */
export const DEFAULT_ERA_VERDICT_MAX_AGE_MS = 60 * 60 * 1000;

/** One server's cached era verdict. Share one between the connections of the same server and principal only. */
export interface EraVerdictCache {
  /** The verdict while it is fresh, else `undefined` (connect probes). */
  read(): PriorDiscovery | undefined;
  /** Keeps what a probing connect found, dated now. */
  remember(verdict: PriorDiscovery): void;
  /** Drops the verdict (a start that used it failed). */
  forget(): void;
}

/** A verdict cache for one server. */
export function createEraVerdictCache(options: { maxAgeMs?: number; now?: () => number } = {}): EraVerdictCache {
  const maxAgeMs = options.maxAgeMs ?? DEFAULT_ERA_VERDICT_MAX_AGE_MS;
  const now = options.now ?? Date.now;
  let entry: { verdict: PriorDiscovery; storedAt: number } | undefined;
  return {
    read() {
      if (entry !== undefined && now() - entry.storedAt >= maxAgeMs) entry = undefined;
      return entry?.verdict;
    },
    remember(verdict) {
      entry = { verdict, storedAt: now() };
    },
    forget() {
      entry = undefined;
    },
  };
}
