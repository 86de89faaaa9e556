// Requests still being answered when a drain runs out: each is answered with the JSON-RPC error the README
// promises (`-32000`, server shutting down) by its own handler, so the client reads an error, not a closed stream.
// Closing the SDK's servers instead would answer a 2026-07-28 request HTTP 499 with an empty body.
import { ProtocolError } from '@modelcontextprotocol/server';
import { SHUTTING_DOWN_CODE } from './create-request-ledger.js';

/** See `createShutdownCut`. */
export interface ShutdownCut {
  /** `work`, unless the cut comes first: then a `-32000` error. */
  race<T>(work: Promise<T>): Promise<T>;
  /** Cuts every request racing now or later; `drainTimeoutMs` is told in the error. Idempotent. */
  cut(drainTimeoutMs: number): void;
  readonly isCut: boolean;
}

export function createShutdownCut(): ShutdownCut {
  let fire: ((error: ProtocolError) => void) | undefined;
  const fired = new Promise<never>((_resolve, reject) => (fire = reject));
  // Nobody may be racing when it fires.
  fired.catch(() => undefined);
  let isCut = false;
  return {
    race: (work) => (isCut ? Promise.race([fired, work]) : Promise.race([work, fired])),
    cut(drainTimeoutMs) {
      if (isCut) return;
      isCut = true;
      fire?.(new ProtocolError(SHUTTING_DOWN_CODE, `Server shutting down: the request did not finish within the drain timeout (${drainTimeoutMs} ms) and was cancelled`));
    },
    get isCut() {
      return isCut;
    },
  };
}
