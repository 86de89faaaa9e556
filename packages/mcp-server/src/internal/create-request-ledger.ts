// The requests of one MCP client connection that are not answered yet, for the two things only a transport-level
// view can do: tell whether a session is idle (nothing in flight), and shut down cleanly: stop taking requests, let
// those in flight finish up to a drain timeout, then answer each one left with an error the client sees at once.
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';

/** The JSON-RPC error code of a request answered because the server is shutting down. */
export const SHUTTING_DOWN_CODE = -32000;

/** See `createRequestLedger`. */
export interface RequestLedger {
  /** Ids of the requests received and not answered yet. */
  readonly inFlight: ReadonlySet<RequestId>;
  /** A message from the client: false when it must not be delivered (a request while draining, answered here). */
  received(message: JSONRPCMessage): boolean;
  /** A message to the client: false when it must not be sent (a late answer to a request already answered here). */
  sending(message: JSONRPCMessage): boolean;
  /**
   * Refuses new requests from now on, waits up to `timeoutMs` for those in flight, then answers each one left with
   * a shutting-down error. Resolves with how many finished by themselves and how many were cut.
   */
  drain(timeoutMs: number): Promise<{ finished: number; cut: number }>;
}

/** Creates the ledger; `answer` sends a JSON-RPC error for a request id (on the request's own stream). */
export function createRequestLedger(answer: (id: RequestId, error: { code: number; message: string }) => void): RequestLedger {
  const inFlight = new Set<RequestId>();
  const cut = new Set<RequestId>();
  let draining = false;
  let settled: (() => void) | undefined;
  return {
    inFlight,
    received(message) {
      if (!('method' in message) || !('id' in message)) return true;
      if (draining) {
        answer(message.id, { code: SHUTTING_DOWN_CODE, message: 'Server shutting down: no new requests are taken' });
        return false;
      }
      inFlight.add(message.id);
      return true;
    },
    sending(message) {
      if ('method' in message || !('id' in message) || message.id === undefined || message.id === null) return true;
      if (cut.has(message.id)) return false;
      inFlight.delete(message.id);
      if (inFlight.size === 0) settled?.();
      return true;
    },
    async drain(timeoutMs) {
      draining = true;
      const before = inFlight.size;
      if (inFlight.size > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, timeoutMs);
          settled = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      settled = undefined;
      const left = [...inFlight];
      for (const id of left) {
        inFlight.delete(id);
        cut.add(id);
        answer(id, { code: SHUTTING_DOWN_CODE, message: `Server shutting down: the request did not finish within the drain timeout (${timeoutMs} ms) and was cancelled` });
      }
      return { finished: before - left.length, cut: left.length };
    },
  };
}
