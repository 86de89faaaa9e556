// Property (fail closed): over random catalogs and policies, in every mode the toolset serves (code, tools,
// directory, and deferral on a direct session), nothing the adapter hands the model through ADK's own loop (the
// declared functions, the instruction, every function response) names or describes a tool the policy denies,
// except the model's own argument echoed back; and no denied tool ever runs. Each tool's name and description
// carry a marker of their own (`n<i>n`, `zq<i>q`), so a leak is found wherever it lands.
import fc from 'fast-check';
import { createToolSearchHost, type ExecutableTool } from '@tool-search/gateway-adapter';
import { createPolicy } from '@tool-search/policy';
import { ADAPTER_WORDS, denyPolicyArbitrary, markedTools, propertySettings, rawToolsArbitrary, scaledTimeout, withoutEchoes } from '@tool-search/property-settings';
import { describe, expect, it } from 'vitest';
import { functionResponses, runConversation, ScriptedLlm, type ScriptedTurn } from './internal/fixtures.js';
import { ToolSearchToolset } from './tool-search-toolset.js';

const settings = propertySettings();

const CONFIGS = [{ mode: 'code' }, { mode: 'tools' }, { mode: 'directory' }, { native: true }];

const catalogArbitrary = rawToolsArbitrary({ maxDescriptionWords: 5, maxTools: 10 });
const policyArbitrary = denyPolicyArbitrary({ minRules: 1 });
const queriesArbitrary = fc.array(fc.array(fc.constantFrom(...ADAPTER_WORDS), { minLength: 1, maxLength: 2 }).map((words) => words.join(' ')), { minLength: 1, maxLength: 3 });

describe('ToolSearchToolset (property)', () => {
  it('hands the model nothing of a denied tool and never runs one, in every mode', async () => {
    await fc.assert(
      fc.asyncProperty(catalogArbitrary, policyArbitrary, queriesArbitrary, async (raw, policyConfig, queries) => {
        const ran: string[] = [];
        const tools: ExecutableTool[] = markedTools(raw, ran);
        const ids = tools.map((tool) => `openclaw:${tool.owner ?? 'core'}:${tool.name}`);
        const host = await createToolSearchHost({ sources: { openclaw: tools } });
        try {
          const policy = createPolicy(policyConfig);
          for (const config of CONFIGS) {
            const session = await host.openSession({ config, policy });
            const denied = ids.flatMap((id, index) => (session.tool(id) === undefined ? [index] : []));
            const turns: ScriptedTurn[] =
              'mode' in config && config.mode === 'code'
                ? [
                    { calls: queries.map((query) => ({ name: 'tool_search_code', args: { code: `return await tools.search(${JSON.stringify(query)})` } })) },
                    { calls: denied.map((index) => ({ name: 'tool_search_code', args: { code: `return [await tools.describe(${JSON.stringify(ids[index])}), await tools.call(${JSON.stringify(ids[index])}, {})]` } })) },
                  ]
                : [
                    { calls: queries.map((query) => ({ name: 'tool_search', args: { query } })) },
                    { calls: [{ name: 'tool_search', args: { queries } }] },
                    ...('native' in config ? [] : [{ calls: ids.flatMap((id) => [{ name: 'tool_describe', args: { id } }, { name: 'tool_call', args: { id, args: {} } }]) }]),
                  ];
            const model = new ScriptedLlm([...turns.filter((turn) => !('calls' in turn) || turn.calls.length > 0), { text: 'done' }]);
            await runConversation(new ToolSearchToolset(session), model, ['go']);
            // The model's own arguments (a denied id it asked for) may come back in an error; nothing else may.
            const echoes = denied.map((index) => ids[index] as string);
            const handed = model.requests.map((request) => JSON.stringify([request.declared, request.instruction, functionResponses(request)]));
            for (const text of handed) {
              const stripped = withoutEchoes(text, echoes.map((id) => JSON.stringify(id).slice(1, -1)));
              for (const index of denied) {
                expect(stripped).not.toContain(`n${index}n`);
                expect(stripped).not.toContain(`zq${index}q`);
              }
            }
            expect(ran.filter((marker) => denied.some((index) => marker === `n${index}n`))).toEqual([]);
            await session.close();
          }
        } finally {
          await host.close();
        }
      }),
      { numRuns: settings.runs(12), seed: settings.seed },
    );
  }, scaledTimeout(300_000));
});
