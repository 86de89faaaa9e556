// How replicas of one endpoint pass a client's answers to the replica whose call asked for them. On the 2026-07-28
// front a call that asks its client something mid-call keeps running where it started; the client's retry may reach
// any replica. The replica that has no such call forwards the answers; the one holding the call continues it and
// sends back what the round answers (the result, or the next questions). `@tool-search/redis-store` gives one on Redis.

/** What the holder of a call sends back: the round's answer (a JSON-RPC result), or the error the retry gets. */
export type InputCallReply = { ok: true; answer: unknown } | { ok: false; code: number; message: string };

/** A meeting place of the replicas for calls between their rounds. */
export interface InputCallRendezvous {
  /**
   * Serves, for as long as `callId` is pending here, the retries that reach other replicas: `answer` continues the
   * call with their answers. Resolves once other replicas can reach it, with the function that stops serving.
   */
  hold(callId: string, answer: (answers: Record<string, unknown> | undefined) => Promise<InputCallReply>): Promise<() => Promise<void>>;
  /**
   * Passes `answers` to the replica holding `callId`; resolves with its reply, or `undefined` when none holds it. A
   * holder that stops while this waits gives an error reply (-32602 for one known gone), not a wait without end.
   */
  forward(callId: string, answers: Record<string, unknown> | undefined): Promise<InputCallReply | undefined>;
}
