// How many tool calls on the 2026-07-28 path may wait between rounds (for a client's answers to an upstream
// server's questions) at once: each one holds its session, its timers and a rendezvous slot for up to ten minutes,
// so an unbounded number lets one client fill a replica's memory. Bounded per client (its remote address) and per
// process; a call past a bound is refused with a message naming it, and its questions are withdrawn.

/** The bounds: calls waiting for answers per client, and in this process. */
export interface PendingCallLimitOptions {
  /** Default 64. */
  perClient?: number | undefined;
  /** Default 1,000. */
  perProcess?: number | undefined;
}

/** See `createPendingCallLimits`. */
export interface PendingCallLimits {
  /** Takes a slot for one waiting call of `client`; `release` gives it back (idempotent). */
  admit(client: string): { ok: true; release: () => void } | { ok: false; message: string };
  /** Calls waiting now, in all and for one client. */
  waiting(client?: string): number;
}

export const DEFAULT_PENDING_CALLS_PER_CLIENT = 64;
export const DEFAULT_PENDING_CALLS_PER_PROCESS = 1_000;

export function createPendingCallLimits(options: PendingCallLimitOptions = {}): PendingCallLimits {
  const perClient = options.perClient ?? DEFAULT_PENDING_CALLS_PER_CLIENT;
  const perProcess = options.perProcess ?? DEFAULT_PENDING_CALLS_PER_PROCESS;
  const byClient = new Map<string, number>();
  let total = 0;
  return {
    waiting: (client) => (client === undefined ? total : (byClient.get(client) ?? 0)),
    admit(client) {
      const held = byClient.get(client) ?? 0;
      if (held >= perClient) {
        return { ok: false, message: `Too many calls waiting for answers: this client has ${held} waiting (the per-client limit is ${perClient}); answer or abandon those first` };
      }
      if (total >= perProcess) {
        return { ok: false, message: `Too many calls waiting for answers: this server holds ${total} waiting (its limit is ${perProcess}); try again shortly` };
      }
      byClient.set(client, held + 1);
      total += 1;
      let released = false;
      return {
        ok: true,
        release() {
          if (released) return;
          released = true;
          total -= 1;
          const left = (byClient.get(client) ?? 1) - 1;
          if (left === 0) byClient.delete(client);
          else byClient.set(client, left);
        },
      };
    },
  };
}
