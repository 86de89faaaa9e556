// Property: the relay puts an upstream's question to the client whose call asked it, or to nobody. Generated: calls
// of several MCP sessions (some without the elicitation capability, some already ended), and questions asked at
// once, each within one call's scope or outside every call, marked `withinCall` or not, each after its own delay so
// their async contexts interleave. The relay's answer must match the rule exactly: a marked question within a call
// still in flight goes to that call's client (if it can answer); any other goes to the one session in flight, or to
// nobody. A question never reaches a client of another session than the one the rule names.
import fc from 'fast-check';
import { propertySettings } from '@tool-search/property-settings';
import { describe, expect, it } from 'vitest';
import { createMcpClientRelay, type RelayCall } from './create-mcp-client-relay.js';

const settings = propertySettings();

const callShape = fc.record({ session: fc.integer({ min: 0, max: 3 }), capable: fc.boolean(), ended: fc.boolean() });
const questionShape = (calls: number) => fc.record({ from: fc.option(fc.integer({ min: 0, max: calls - 1 }), { nil: undefined }), marked: fc.boolean(), delayMs: fc.integer({ min: 0, max: 3 }) });

describe('createMcpClientRelay (property)', () => {
  it('asks exactly the client the rule names, for concurrent questions within and outside calls', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(callShape, { minLength: 1, maxLength: 6 }).chain((calls) => fc.tuple(fc.constant(calls), fc.array(questionShape(calls.length), { minLength: 1, maxLength: 8 }))),
        async ([shapes, questions]) => {
          const relay = createMcpClientRelay();
          const received = new Map<number, number>();
          const calls: RelayCall[] = shapes.map((shape, index) => ({
            session: `s${shape.session}`,
            capabilities: () => (shape.capable ? { elicitation: { form: {} } } : {}),
            sendRequest: async (request) => {
              received.set(Number((request.params as { message: string }).message), index);
              return { action: 'accept', content: {} } as never;
            },
          }));
          const leaves = calls.map((call) => relay.enter(call));
          shapes.forEach((shape, index) => shape.ended && leaves[index]!());
          const inFlight = calls.filter((_, index) => !shapes[index]!.ended);
          const signal = new AbortController().signal;
          const answers = await Promise.all(
            questions.map(async (question, id) => {
              const ask = async () => {
                await new Promise((resolve) => setTimeout(resolve, question.delayMs));
                return relay.onElicitation({ mode: 'form', message: String(id), requestedSchema: { type: 'object', properties: {} } } as never, { server: 'up', signal, withinCall: question.marked });
              };
              return question.from === undefined ? ask() : relay.within(calls[question.from]!, ask);
            }),
          );
          questions.forEach((question, id) => {
            const own = question.from !== undefined && question.marked && !shapes[question.from]!.ended ? question.from : undefined;
            let expected: number | undefined;
            if (own !== undefined) expected = shapes[own]!.capable ? own : undefined;
            else if (new Set(inFlight.map((call) => call.session)).size === 1) {
              const last = calls.indexOf(inFlight[inFlight.length - 1]!);
              expected = shapes[last]!.capable ? last : undefined;
            }
            expect(received.get(id), `question ${id}: ${JSON.stringify({ question, shapes })}`).toBe(expected);
            expect(answers[id]).toEqual(expected === undefined ? { action: 'decline' } : { action: 'accept', content: {} });
          });
        },
      ),
      { seed: settings.seed, numRuns: settings.runs(200) },
    );
  });
});
