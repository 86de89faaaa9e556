// Property (fail closed): over random catalogs and policies, in every mode the processor serves (code, tools,
// directory, and deferral on a direct session), nothing the processor hands the model through Mastra's own agent
// loop (the declared tools, the system text, every tool result) names or describes a tool the policy denies, except
// the model's own argument echoed back; and no denied tool ever runs. Each tool's name and description carry a
// marker of their own (`n<i>n`, `zq<i>q`), so a leak is found wherever it lands.
import fc from 'fast-check';
import { createToolSearchHost, type ExecutableTool } from '@tool-search/gateway-adapter';
import { createPolicy } from '@tool-search/policy';
import { ADAPTER_WORDS, denyPolicyArbitrary, markedTools, propertySettings, rawToolsArbitrary, scaledTimeout, withoutEchoes } from '@tool-search/property-settings';
import { describe, expect, it } from 'vitest';
import { agentWith, scriptedModel, systemText, toolResults, type ScriptedStep } from './internal/fixtures.js';
import { ToolSearchSessionProcessor } from './tool-search-session-processor.js';

const settings = propertySettings();

const CONFIGS = [{ mode: 'code' }, { mode: 'tools' }, { mode: 'directory' }, { native: true }];

const catalogArbitrary = rawToolsArbitrary({ maxDescriptionWords: 5, maxTools: 10 });
const policyArbitrary = denyPolicyArbitrary({ minRules: 1 });
const queriesArbitrary = fc.array(fc.array(fc.constantFrom(...ADAPTER_WORDS), { minLength: 1, maxLength: 2 }).map((words) => words.join(' ')), { minLength: 1, maxLength: 3 });

describe('ToolSearchSessionProcessor (property)', () => {
  it('hands the model nothing of a denied tool and never runs one, in every mode', async () => {
    await fc.assert(
      fc.asyncProperty(catalogArbitrary, policyArbitrary, queriesArbitrary, fc.boolean(), async (raw, policyConfig, queries, autoLoad) => {
        const ran: string[] = [];
        const tools: ExecutableTool[] = markedTools(raw, ran);
        const ids = tools.map((tool) => `openclaw:${tool.owner ?? 'core'}:${tool.name}`);
        const host = await createToolSearchHost({ sources: { openclaw: tools } });
        try {
          const policy = createPolicy(policyConfig);
          for (const config of CONFIGS) {
            const session = await host.openSession({ config, policy });
            const denied = ids.flatMap((id, index) => (session.tool(id) === undefined ? [index] : []));
            const deniedNames = denied.map((index) => tools[index]?.name as string);
            const steps: ScriptedStep[] =
              'mode' in config && config.mode === 'code'
                ? [
                    { calls: queries.map((query) => ({ name: 'tool_search_code', input: { code: `return await tools.search(${JSON.stringify(query)})` } })) },
                    { calls: denied.map((index) => ({ name: 'tool_search_code', input: { code: `return [await tools.describe(${JSON.stringify(ids[index])}), await tools.call(${JSON.stringify(ids[index])}, {})]` } })) },
                  ]
                : 'native' in config
                  ? [
                      { calls: queries.map((query) => ({ name: 'search_tools', input: { query } })) },
                      ...(autoLoad ? [] : [{ calls: [{ name: 'load_tool', input: { toolNames: tools.map((tool) => tool.name) } }] }]),
                      { calls: deniedNames.map((name) => ({ name, input: {} })) },
                    ]
                  : [
                      { calls: queries.map((query) => ({ name: 'tool_search', input: { query } })) },
                      { calls: ids.flatMap((id) => [{ name: 'tool_describe', input: { id } }, { name: 'tool_call', input: { id, args: {} } }]) },
                    ];
            const model = scriptedModel([...steps.filter((step) => !('calls' in step) || step.calls.length > 0), { text: 'done' }]);
            await agentWith(new ToolSearchSessionProcessor(session, { search: { autoLoad } }), model).generate('go', { maxSteps: 8 });
            // The model's own arguments (a denied id or name it asked for) may come back in an error; nothing else may.
            const echoes = [...denied.map((index) => ids[index] as string), ...deniedNames];
            for (const call of model.doGenerateCalls) {
              const text = JSON.stringify([call.tools, systemText(call), toolResults(call)]);
              const stripped = withoutEchoes(text, echoes);
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
      { numRuns: settings.runs(10), seed: settings.seed },
    );
  }, scaledTimeout(300_000));
});
