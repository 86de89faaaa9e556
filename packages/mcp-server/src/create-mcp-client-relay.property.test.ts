// Property: the relay puts an upstream server's question to exactly the client the rule names, or to nobody.
// Generated: calls of several MCP sessions (some clients without the capabilities), each talking to some of the
// upstream servers and under a policy that admits some of them; then a script of steps run in order, each without
// waiting for the questions already asked: a question (elicitation or sampling) from one server, asked within one
// call's scope or outside every call, marked `withinCall` (a 2026-07-28 round) or not (a 2025-era request); a call
// ending (finished, cancelled, timed out); a call's upstream call to one server ending while the call goes on, or
// being abandoned (cancelled, timed out while the server still works on it).
// The rule: a question marked as asked within a call whose scope it is in goes to that call's client when the call
// is still in flight, talking to the asking server, and its policy admits that server; never to anyone else, and to
// nobody once that call ended. Any other question goes to the one session whose calls in flight talk to the asking
// server, when its policy admits the server; to nobody when no session or several do, or when a call to that server
// was abandoned moments ago (the question may be that call's). Either way only to a client
// that declared the capability. Elicitation is then declined and sampling refused.
import fc from 'fast-check';
import { propertySettings, scaledTimeout } from '@tool-search/property-settings';
import { describe, expect, it } from 'vitest';
import { createMcpClientRelay, type RelayCall } from './create-mcp-client-relay.js';

const settings = propertySettings();
const SERVERS: readonly string[] = ['alpha', 'beta', 'hrsecret'];
const server = fc.constantFrom(...SERVERS);

const callShape = fc.record({
  session: fc.integer({ min: 0, max: 3 }),
  capable: fc.boolean(),
  talks: fc.subarray([...SERVERS]),
  admitted: fc.subarray([...SERVERS]),
});
type CallShape = { session: number; capable: boolean; talks: string[]; admitted: string[] };

const stepShape = (calls: number) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('ask' as const), from: fc.option(fc.integer({ min: 0, max: calls - 1 }), { nil: undefined }), marked: fc.boolean(), server, sampling: fc.boolean() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('end' as const), call: fc.integer({ min: 0, max: calls - 1 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('hangUp' as const), call: fc.integer({ min: 0, max: calls - 1 }), server, abandoned: fc.boolean() }) },
  );

const SAMPLED = { role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'm' };

/** Who the rule names for a question, given the calls' state when it is asked. */
function named(question: { from: number | undefined; marked: boolean; server: string; sampling: boolean }, calls: Array<CallShape & { inFlight: boolean; talking: Set<string> }>, quiet: ReadonlySet<string>): number | undefined {
  const capable = (index: number) => calls[index]!.capable;
  const admits = (index: number) => calls[index]!.admitted.includes(question.server);
  if (question.marked && question.from !== undefined) {
    const own = calls[question.from]!;
    if (!own.inFlight || !own.talking.has(question.server) || !admits(question.from)) return undefined;
    return capable(question.from) ? question.from : undefined;
  }
  if (quiet.has(question.server)) return undefined;
  const talking = calls.flatMap((call, index) => (call.inFlight && call.talking.has(question.server) ? [index] : []));
  if (new Set(talking.map((index) => calls[index]!.session)).size !== 1) return undefined;
  const last = talking[talking.length - 1]!;
  return admits(last) && capable(last) ? last : undefined;
}

describe('createMcpClientRelay (property)', () => {
  it('asks exactly the client the rule names (talking to the asker, admitting it), or nobody, in both eras and after calls end', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(callShape, { minLength: 1, maxLength: 5 }).chain((calls) => fc.tuple(fc.constant(calls), fc.array(stepShape(calls.length), { minLength: 1, maxLength: 12 }))),
        async ([shapes, steps]) => {
          const relay = createMcpClientRelay();
          const received = new Map<number, number>();
          const state = shapes.map((shape) => ({ ...shape, inFlight: true, talking: new Set(shape.talks) }));
          const calls: RelayCall[] = state.map((shape, index) => ({
            session: `s${shape.session}`,
            capabilities: () => (shape.capable ? { elicitation: { form: {} }, sampling: {} } : {}),
            talksTo: (name: string) => shape.talking.has(name),
            admits: (name: string) => shape.admitted.includes(name),
            sendRequest: async (request: { method: string; params?: Record<string, unknown> }) => {
              const params = request.params as { message?: string; messages?: Array<{ content: { text: string } }> };
              received.set(Number(params.message ?? params.messages?.[0]?.content.text), index);
              return (request.method === 'sampling/createMessage' ? SAMPLED : { action: 'accept', content: {} }) as never;
            },
          }));
          const leaves = calls.map((call) => relay.enter(call));
          const quiet = new Set<string>();
          const signal = new AbortController().signal;
          const asked: Array<{ id: number; sampling: boolean; expected: number | undefined; answer: Promise<unknown>; step: unknown }> = [];
          for (const [id, step] of steps.entries()) {
            if (step.kind === 'end') {
              leaves[step.call]!();
              state[step.call]!.inFlight = false;
              state[step.call]!.talking.clear();
            } else if (step.kind === 'hangUp') {
              // An upstream call abandoned while in flight (cancelled, timed out): the server may still be serving it.
              if (step.abandoned && state[step.call]!.inFlight && state[step.call]!.talking.has(step.server)) {
                relay.abandoned(step.server);
                quiet.add(step.server);
              }
              state[step.call]!.talking.delete(step.server);
            } else {
              const expected = named(step, state, quiet);
              const context = { server: step.server, signal, ...(step.marked ? { withinCall: true } : {}) };
              const ask = (): Promise<unknown> =>
                step.sampling
                  ? relay.onSampling({ messages: [{ role: 'user', content: { type: 'text', text: String(id) } }], maxTokens: 5 } as never, context)
                  : relay.onElicitation({ mode: 'form', message: String(id), requestedSchema: { type: 'object', properties: {} } } as never, context);
              // Decided when asked: the answer is awaited only after the whole script, so questions overlap.
              const answer = (step.from === undefined ? ask() : relay.within(calls[step.from]!, ask)).then(
                (value) => ({ value }),
                (error: unknown) => ({ error: String(error) }),
              );
              asked.push({ id, sampling: step.sampling, expected, answer, step });
            }
            await new Promise((resolve) => setImmediate(resolve));
          }
          for (const question of asked) {
            const answer = await question.answer;
            const label = `step ${question.id}: ${JSON.stringify({ step: question.step, shapes, steps })}`;
            expect(received.get(question.id), label).toBe(question.expected);
            if (question.expected !== undefined) expect(answer, label).toEqual({ value: question.sampling ? SAMPLED : { action: 'accept', content: {} } });
            else if (question.sampling) expect(answer, label).toMatchObject({ error: expect.stringMatching(/Sampling is not available/) });
            else expect(answer, label).toEqual({ value: { action: 'decline' } });
          }
        },
      ),
      { seed: settings.seed, numRuns: settings.runs(200) },
    );
  }, scaledTimeout(120_000));
});
