// Tool calls on the 2026-07-28 path whose upstream server asks the client something mid-call (elicitation,
// sampling): such a call is answered with `input_required` (Multi Round-Trip Requests) instead of a request to the
// client, keeps running on this process, and continues when the client retries with its answers and the signed
// `requestState`. The state names the pending call and its round; it is HMAC-signed by the SDK's codec, so a
// tampered or expired one is refused before the handler runs, and it answers its own round only, once: a state of an
// earlier round (a replay, a stale retry) cannot answer a later round's questions. Replicas given the same secret verify each other's states. The
// running call stays in the memory of the process that started it: a retry that reaches another replica is passed
// to it through the rendezvous when there is one (see input-call-rendezvous.ts), else told to call again.
import { randomBytes, randomUUID } from 'node:crypto';
import { createRequestStateCodec, inputRequired, ProtocolError, ProtocolErrorCode, type CallToolResult, type RequestStateCodec } from '@modelcontextprotocol/server';
import type { InputCallReply, InputCallRendezvous } from '../input-call-rendezvous.js';
import type { PendingCallLimits } from './create-pending-call-limits.js';

/** How long a call waits for the client's retry before its questions are withdrawn (the codec's state lives as long). */
const PENDING_TTL_SECONDS = 600;

/** One question of the upstream server, waiting for the client's answer. */
interface Question {
  request: { method: string; params?: Record<string, unknown> };
  schema: { parse(value: unknown): unknown };
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** A call in progress between rounds. */
interface PendingCall {
  result: Promise<CallToolResult>;
  questions: Map<string, Question>;
  /** Resolved when a new question arrives (replaced after each). */
  asked: Promise<void>;
  timer: NodeJS.Timeout;
  /** Rounds answered with `input_required` so far. */
  rounds: number;
  /** The round whose answers the call waits for; none while it runs between a retry and its next round. */
  awaiting?: number | undefined;
  /** Resolves once other replicas can reach this call's round (the rendezvous holds it), with the function that stops it. */
  held: Promise<(() => Promise<void>) | undefined>;
  /** The client whose call it is, for the limits. */
  client: string;
  /** Gives back the call's slot in the limits, once it waits between rounds. */
  release?: (() => void) | undefined;
  /** Why its questions were withdrawn: a question asked after that is refused at once with it. */
  withdrawn?: string | undefined;
}

/** What a round answers: the call's result, or the questions the client must answer first (with the state to echo). */
export type RoundAnswer = CallToolResult | ReturnType<typeof inputRequired>;

/** The state a round's `input_required` carries. */
export interface InputCallState {
  call: string;
  /** Which round minted it: each round's state differs from the last, as the spec asks. */
  round?: number;
}

export interface ModernInputCalls {
  /** The codec whose `verify` the server's `requestState` option runs. */
  readonly codec: RequestStateCodec<InputCallState>;
  /**
   * Starts a call: `run` gets `ask`, the relay's way to put a question to this call's client, and resolves with
   * the result. Answers the first round.
   */
  start(run: (ask: Ask) => Promise<CallToolResult>, client?: string): Promise<RoundAnswer>;
  /** Continues the call named by a verified state with the client's answers. */
  resume(state: InputCallState, answers: Record<string, unknown> | undefined): Promise<RoundAnswer>;
  /** Calls waiting for a retry now. */
  pending(): number;
  /** Withdraws every call's questions (the upstream servers are told `reason`), and refuses those asked from now on. */
  withdrawAll(reason: string): void;
}

/**
 * Puts one question to the client (what `RelayCall.sendRequest` does on this path), under the upstream server's own
 * key when it gave one (a 2026-07-28 upstream's `inputRequests` key) and no other open question has it.
 */
export type Ask = <T>(request: { method: string; params?: Record<string, unknown> }, schema: { parse(value: unknown): T }, key?: string) => Promise<T>;

/**
 * `stateSecret` (checked by `checkStateSecret`) signs the states: replicas behind one load balancer share it, so each
 * verifies the others' states (without it the key is random, of this process). `rendezvous` passes a retry that
 * reaches a replica without its call to the one holding it.
 */
export function createModernInputCalls(options: { stateSecret?: string | undefined; rendezvous?: InputCallRendezvous | undefined; limits?: PendingCallLimits | undefined } = {}): ModernInputCalls {
  const key = options.stateSecret === undefined ? randomBytes(32) : new TextEncoder().encode(options.stateSecret);
  const calls: PendingCalls = { codec: createRequestStateCodec<InputCallState>({ key, ttlSeconds: PENDING_TTL_SECONDS }), calls: new Map(), rendezvous: options.rendezvous, limits: options.limits };
  const { rendezvous } = options;
  return {
    codec: calls.codec,
    pending: () => calls.calls.size,
    withdrawAll(reason) {
      calls.closing = reason;
      for (const id of [...calls.calls.keys()]) withdraw(calls, id, reason);
    },
    start: (run, client = 'local') => startCall(calls, run, client),
    async resume(state, answers) {
      if (calls.calls.has(state.call) || rendezvous === undefined) return resumeHere(calls, state.call, answers, state.round);
      if (state.round === undefined) throw staleRound(state.round, undefined);
      // Held by another replica (or by none): the answers go to it, its round's answer comes back.
      const replied = await rendezvous.forward(roundName(state.call, state.round), answers);
      if (replied === undefined) throw notWaiting();
      if (!replied.ok) throw new ProtocolError(replied.code, replied.message);
      return replied.answer as RoundAnswer;
    },
  };
}

/** The calls of this process waiting between rounds, and what they are held and bounded with. */
interface PendingCalls {
  readonly codec: RequestStateCodec<InputCallState>;
  readonly calls: Map<string, PendingCall>;
  readonly rendezvous: InputCallRendezvous | undefined;
  readonly limits: PendingCallLimits | undefined;
  /** Why every call's questions were withdrawn (the process is closing): a call started after that asks nothing. */
  closing?: string | undefined;
}

/** Starts a call (see `ModernInputCalls.start`) and answers its first round. */
function startCall(calls: PendingCalls, run: (ask: Ask) => Promise<CallToolResult>, client: string): Promise<RoundAnswer> {
  const id = randomUUID();
  let signal = () => undefined as void;
  const newAsked = () => new Promise<void>((resolve) => (signal = resolve));
  let counter = 0;
  const call: PendingCall = {
    questions: new Map(),
    asked: newAsked(),
    // Replaced by the run's result below, before any round reads it (the run needs `ask`, which needs the call).
    result: new Promise<CallToolResult>(() => undefined),
    timer: setTimeout(() => withdraw(calls, id, 'the client did not answer in time'), PENDING_TTL_SECONDS * 1_000),
    rounds: 0,
    held: Promise.resolve(undefined),
    client,
    withdrawn: calls.closing,
  };
  call.timer.unref();
  // Held by the rendezvous round by round, once the call asks something (a call that just answers never needs it).
  const ask: Ask = (request, schema, key) => {
    return new Promise((resolve, reject) => {
      if (call.withdrawn !== undefined) return reject(new Error(call.withdrawn));
      let asked = key;
      while (asked === undefined || call.questions.has(asked)) asked = `input-${++counter}`;
      call.questions.set(asked, { request, schema, resolve: resolve as (value: unknown) => void, reject });
      const fire = signal;
      call.asked = newAsked();
      fire();
    });
  };
  call.result = run(ask).finally(() => {
    call.release?.();
    clearTimeout(call.timer);
    calls.calls.delete(id);
    void call.held.then((stop) => stop?.()).catch(() => undefined);
  });
  // Between rounds nobody awaits the call: a failure then is answered by the next round, never left unhandled.
  call.result.catch(() => undefined);
  calls.calls.set(id, call);
  return answerRound(calls, id, call);
}

/** Waits for the call to finish or to ask something, and answers the round accordingly. */
async function answerRound(calls: PendingCalls, id: string, call: PendingCall): Promise<RoundAnswer> {
  // Questions still unanswered (a partial retry) are asked again at once; otherwise the call runs until it
  // finishes or asks something, and questions asked together (in the same turn) go out together.
  if (call.questions.size === 0) {
    const next = await Promise.race([call.result.then((result) => ({ result })), call.asked.then(() => ({ asked: true as const }))]);
    if ('result' in next) return next.result;
    await new Promise((resolve) => setImmediate(resolve));
  }
  const inputRequests = Object.fromEntries([...call.questions].map(([key, question]) => [key, toInputRequest(question.request)]));
  // A call that starts waiting takes a slot of its client's and of this process's: past either, it is refused.
  if (call.release === undefined && calls.limits !== undefined) {
    const admitted = calls.limits.admit(call.client);
    if (!admitted.ok) {
      withdraw(calls, id, admitted.message);
      throw new ProtocolError(TOO_MANY_WAITING_CODE, admitted.message);
    }
    call.release = admitted.release;
  }
  // The client's retry may reach another replica: it must find this round held before the client can retry. Each
  // round is held under its own name, the last one's let go, so a state of another round reaches nothing there.
  const next = call.rounds + 1;
  if (calls.rendezvous !== undefined) {
    const previous = call.held;
    call.held = calls.rendezvous.hold(roundName(id, next), (answers) => reply(() => resumeHere(calls, id, answers, next))).catch(() => undefined);
    void previous.then((stop) => stop?.()).catch(() => undefined);
  }
  await call.held;
  call.rounds = next;
  call.awaiting = next;
  return inputRequired({ inputRequests, requestState: await calls.codec.mint({ call: id, round: next }) });
}

/** Continues a call of this process with the client's answers to round `answering` (the one its state names). */
async function resumeHere(calls: PendingCalls, id: string, answers: Record<string, unknown> | undefined, answering: number | undefined): Promise<RoundAnswer> {
  const call = calls.calls.get(id);
  if (call === undefined) throw notWaiting();
  if (answering === undefined || answering !== call.awaiting) throw staleRound(answering, call.awaiting);
  call.awaiting = undefined;
  for (const [key, value] of Object.entries(answers ?? {})) {
    const question = call.questions.get(key);
    if (question === undefined) continue;
    call.questions.delete(key);
    try {
      question.resolve(question.schema.parse(value));
    } catch (error) {
      question.reject(error);
    }
  }
  return answerRound(calls, id, call);
}

function withdraw(calls: PendingCalls, id: string, reason: string): void {
  const call = calls.calls.get(id);
  if (call === undefined) return;
  call.withdrawn = reason;
  for (const question of call.questions.values()) question.reject(new Error(reason));
  call.questions.clear();
}

/** The JSON-RPC error code of a call refused because too many calls wait for answers (a server error, as -32000). */
const TOO_MANY_WAITING_CODE = -32000;

/** The rendezvous name of one round of a call: a round's retry reaches only the holder of that round. */
function roundName(id: string, round: number): string {
  return `${id}:round-${round}`;
}

function staleRound(round: number | undefined, awaiting: number | undefined): ProtocolError {
  const waits = awaiting === undefined ? 'waits for no answers now' : `waits for the answers of round ${awaiting}`;
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `This requestState is of ${round === undefined ? 'no round' : `round ${round}`}; the call ${waits}. Answer with the requestState of the call's latest input_required result.`);
}

function notWaiting(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, 'No call is waiting for these answers: it finished, expired, or is held by a server process this one cannot reach. Call the tool again.');
}

/** A round's answer, or its failure, as the rendezvous carries it back. */
async function reply(round: () => Promise<RoundAnswer>): Promise<InputCallReply> {
  try {
    return { ok: true, answer: await round() };
  } catch (error) {
    return { ok: false, code: error instanceof ProtocolError ? error.code : ProtocolErrorCode.InternalError, message: error instanceof Error ? error.message.slice(0, 500) : 'the call failed' };
  }
}

/**
 * The input request of an upstream question, in the SDK's builder shapes. The params pass as the upstream server gave
 * them (its client already checked them): the builders' types take form-mode elicitation only, and a URL-mode one
 * passes through as well.
 */
function toInputRequest(request: { method: string; params?: Record<string, unknown> }) {
  switch (request.method) {
    case 'elicitation/create':
      return inputRequired.elicit(request.params as never);
    case 'sampling/createMessage':
      return inputRequired.createMessage(request.params as never);
    case 'roots/list':
      return inputRequired.listRoots();
    default:
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `An upstream server asked ${request.method.slice(0, 60)}, which cannot be relayed to the client`);
  }
}
