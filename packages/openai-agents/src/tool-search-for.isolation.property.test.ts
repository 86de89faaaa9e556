// Property: fail closed on the Agents SDK's search paths. A run of the SDK's own runner with a scripted model over
// `toolSearchFor` (deferred function tools behind a client tool_search answered by `session.search`) and over
// `toolSearchTools` (tools and code mode: tool_search, tool_describe, tool_call through `session.execute`) sends the
// model exactly what it sends on a host that never had the refused tools, request by request: the declared tools,
// the search outputs, the answers to a refused id, and a call of a refused name ends the run as an unknown name
// does. No refused tool's id, name or description appears in any request. Catalogs of 150 to 1,200 tools; the
// refused tools are the ones added last.
import { Agent, run, setTracingDisabled, type AgentOutputItem, type Tool } from '@openai/agents';
import { createToolSearchHost, type ToolSearchHost, type ToolSearchSession } from '@tool-search/gateway-adapter';
import { createPolicy } from '@tool-search/policy';
import { answersOnEach, executableTool, fakeProbe, ISOLATION_WORDS as WORDS, localTools, OWNER_REFUSALS, ownerRefusal, propertySettings, refuseLastOwners, shownRefusedTools, type LocalTool } from '@tool-search/property-settings';
import { createFakeRunner } from '@tool-search/sandbox-runner/testing';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { functionCall, message, ScriptedModel, searchCall } from './internal/fixtures.js';
import { toolSearchFor } from './tool-search-for.js';
import { toolSearchTools } from './tool-search-tools.js';

const settings = propertySettings();
/** A test's time bound, scaled with the run counts (`pnpm fuzz:isolation` runs each property 25 times as long). */
const scaled = (ms: number) => ms * settings.runs(1);

const hosts: ToolSearchHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

/** The model's requests of one scripted run over `tools` (what the SDK sent it, request by request), and how it ended. */
async function runAgent(tools: Tool[], steps: AgentOutputItem[][]): Promise<unknown> {
  const model = new ScriptedModel(steps);
  let ending: unknown;
  try {
    ending = { output: (await run(new Agent({ name: 'finder', model, tools }), 'Find the right tool.', { maxTurns: steps.length + 1 })).finalOutput };
  } catch (error) {
    ending = { error: (error as Error).message };
  }
  return { requests: JSON.parse(JSON.stringify(model.requests.map((request) => ({ tools: request.tools, input: request.input })))) as unknown, ending };
}

setTracingDisabled(true);

describe('the Agents SDK search paths (property)', () => {
  it('send the model exactly what they send on a host without the refused tools, added last', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({ size: fc.noBias(fc.integer({ min: 150, max: 1_200 })), owners: fc.integer({ min: 2, max: 10 }), refusedOwners: fc.integer({ min: 1, max: 3 }), refusal: fc.constantFrom(...OWNER_REFUSALS), seed: fc.nat(1_000_000) }),
        fc.array(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((words) => words.join(' ')), { minLength: 1, maxLength: 2 }),
        async (shape, queries) => {
          const tools = localTools(shape.size, shape.owners, shape.seed);
          const { refusedOwners, admittedOwners, admitted, refused } = refuseLastOwners(tools, shape.refusedOwners);
          const { policy, context } = ownerRefusal(shape.refusal, tools, refusedOwners, admittedOwners);
          const pair = await Promise.all([tools, admitted].map((list) => createToolSearchHost({ sources: { openclaw: list.map(executableTool) }, probe: fakeProbe, runner: createFakeRunner() })));
          hosts.push(...pair);
          const last = refused.at(-1) as LocalTool;
          const refusedId = `openclaw:${last.owner}:${last.name}`;
          const searches = [last.description.split(' ').slice(0, 3).join(' '), ...queries];
          const scripts: Array<{ config: unknown; tools: (session: ToolSearchSession) => Tool[]; steps: AgentOutputItem[][] }> = [
            {
              config: { native: true },
              tools: (session) => toolSearchFor(session),
              // The last step calls the refused tool by name: the run ends as it does for a name nobody declared.
              steps: [...searches.map((query, i) => [searchCall(`s${i}`, { query, limit: 20 })]), [functionCall('r1', last.name, { text: 'x' })], [message('done')]],
            },
            ...['tools', 'code'].map((mode) => ({
              config: { mode },
              tools: (session: ToolSearchSession): Tool[] => toolSearchTools(session),
              steps: [
                ...searches.map((query, i) =>
                  mode === 'tools' ? [functionCall(`s${i}`, 'tool_search', { query, limit: 20 })] : [functionCall(`s${i}`, 'tool_search_code', { code: `return await tools.search(${JSON.stringify(query)}, { limit: 20 })` })],
                ),
                mode === 'tools'
                  ? [functionCall('r1', 'tool_describe', { id: refusedId }), functionCall('r2', 'tool_call', { id: refusedId, args: { text: 'x' } })]
                  : [functionCall('r1', 'tool_search_code', { code: `return [await tools.describe(${JSON.stringify(refusedId)}), await tools.call(${JSON.stringify(refusedId)}, { text: 'x' })]` })],
                [functionCall('r3', last.name, { text: 'x' })],
                [message('done')],
              ],
            })),
          ];
          for (const script of scripts) {
            const [seen, expected] = await answersOnEach(pair, () => ({ config: script.config, policy: createPolicy(policy), context, sessionId: 's' }), (session) => runAgent(script.tools(session), script.steps));
            const what = `${JSON.stringify(script.config)}, ${shape.size} tools, refused ${refusedOwners.join(',')} by ${JSON.stringify(policy)}`;
            const text = JSON.stringify(seen);
            // The refused id and name are asked for (and echoed as an unknown one is); descriptions never show.
            expect(shownRefusedTools(text, refused, { echoed: (tool) => tool === last, nameEnd: '"' }), what).toEqual([]);
            expect(seen, what).toEqual(expected);
            // Not vacuous: the searches found admitted tools.
            expect(admitted.some((tool) => text.includes(tool.description)), what).toBe(true);
          }
          await Promise.all(hosts.splice(0).map((host) => host.close()));
        },
      ),
      { numRuns: settings.runs(8), seed: settings.seed },
    );
  }, scaled(240_000));
});
