// Tool calls on the 2026-07-28 path whose upstream server asks the client something mid-call (elicitation,
// sampling): such a call is answered with `input_required` (Multi Round-Trip Requests) instead of a request to the
// client, keeps running on this process, and continues when the client retries with its answers and the signed
// `requestState`. The state names only the pending call; it is HMAC-signed by the SDK's codec, so a tampered or
// expired one is refused before the handler runs. Replicas given the same secret verify each other's states; a
// retry that reaches another replica still finds no pending call there and says so (the running call stays in the
// memory of the process that started it: passing the answers to it is not done here).
import { randomBytes, randomUUID } from 'node:crypto';
import { createRequestStateCodec, inputRequired, type CallToolResult, type RequestStateCodec } from '@modelcontextprotocol/server';
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';

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
}

/** What a round answers: the call's result, or the questions the client must answer first (with the state to echo). */
export type RoundAnswer = CallToolResult | ReturnType<typeof inputRequired>;

/** The state a round's `input_required` carries. */
export interface InputCallState {
  call: string;
}

export interface ModernInputCalls {
  /** The codec whose `verify` the server's `requestState` option runs. */
  readonly codec: RequestStateCodec<InputCallState>;
  /**
   * Starts a call: `run` gets `ask`, the relay's way to put a question to this call's client, and resolves with
   * the result. Answers the first round.
   */
  start(run: (ask: Ask) => Promise<CallToolResult>): Promise<RoundAnswer>;
  /** Continues the call named by a verified state with the client's answers. */
  resume(state: InputCallState, answers: Record<string, unknown> | undefined): Promise<RoundAnswer>;
  /** Calls waiting for a retry now. */
  pending(): number;
}

/** Puts one question to the client (what `RelayCall.sendRequest` does on this path). */
export type Ask = <T>(request: { method: string; params?: Record<string, unknown> }, schema: { parse(value: unknown): T }) => Promise<T>;

/**
 * `stateSecret` (checked by `checkStateSecret`) signs the states: replicas behind one load balancer share it so each verifies the others' states.
 * Without it the key is random, of this process.
 */
export function createModernInputCalls(options: { stateSecret?: string | undefined } = {}): ModernInputCalls {
  const key = options.stateSecret === undefined ? randomBytes(32) : new TextEncoder().encode(options.stateSecret);
  const codec = createRequestStateCodec<InputCallState>({ key, ttlSeconds: PENDING_TTL_SECONDS });
  const calls = new Map<string, PendingCall>();

  /** Waits for the call to finish or to ask something, and answers the round accordingly. */
  const round = async (id: string, call: PendingCall): Promise<RoundAnswer> => {
    // Questions still unanswered (a partial retry) are asked again at once; otherwise the call runs until it
    // finishes or asks something, and questions asked together (in the same turn) go out together.
    if (call.questions.size === 0) {
      const next = await Promise.race([call.result.then((result) => ({ result })), call.asked.then(() => ({ asked: true as const }))]);
      if ('result' in next) return next.result;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const inputRequests = Object.fromEntries([...call.questions].map(([key, question]) => [key, toInputRequest(question.request)]));
    return inputRequired({ inputRequests, requestState: await codec.mint({ call: id }) });
  };

  return {
    codec,
    pending: () => calls.size,
    start(run) {
      const id = randomUUID();
      let signal = () => undefined as void;
      const newAsked = () => new Promise<void>((resolve) => (signal = resolve));
      let counter = 0;
      const call: PendingCall = {
        questions: new Map(),
        asked: newAsked(),
        result: Promise.resolve() as unknown as Promise<CallToolResult>,
        timer: setTimeout(() => withdraw(id, 'the client did not answer in time'), PENDING_TTL_SECONDS * 1_000),
      };
      call.timer.unref();
      const ask: Ask = (request, schema) =>
        new Promise((resolve, reject) => {
          call.questions.set(`input-${++counter}`, { request, schema, resolve: resolve as (value: unknown) => void, reject });
          const fire = signal;
          call.asked = newAsked();
          fire();
        });
      call.result = run(ask).finally(() => {
        clearTimeout(call.timer);
        calls.delete(id);
      });
      // Between rounds nobody awaits the call: a failure then is answered by the next round, never left unhandled.
      call.result.catch(() => undefined);
      calls.set(id, call);
      return round(id, call);
    },
    async resume(state, answers) {
      const call = calls.get(state.call);
      if (call === undefined) throw new McpError(ErrorCode.InvalidParams, 'No call is waiting for these answers here: it finished, expired, or is held by another server process. Call the tool again.');
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
      return round(state.call, call);
    },
  };

  function withdraw(id: string, reason: string): void {
    const call = calls.get(id);
    if (call === undefined) return;
    for (const question of call.questions.values()) question.reject(new Error(reason));
    call.questions.clear();
  }
}

/** The input request of an upstream question, in the SDK's builder shapes. */
function toInputRequest(request: { method: string; params?: Record<string, unknown> }) {
  switch (request.method) {
    case 'elicitation/create':
      return inputRequired.elicit(request.params as never);
    case 'sampling/createMessage':
      return inputRequired.createMessage(request.params as never);
    case 'roots/list':
      return inputRequired.listRoots();
    default:
      throw new McpError(ErrorCode.InvalidRequest, `An upstream server asked ${request.method.slice(0, 60)}, which cannot be relayed to the client`);
  }
}
