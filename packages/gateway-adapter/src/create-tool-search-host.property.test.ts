// Property: a session on a host with tools its policy denies behaves, on every route (tool_search,
// tool_describe, tool_call, declared and hydrated names, pins, and tools.search/describe/call inside code),
// exactly as a session on a host that never had those tools. So nothing of a denied tool leaves the host, and
// a denied id is answered exactly as an unknown one.
import fc from 'fast-check';
import { createPolicy, type PolicyConfig } from '@tool-search/policy';
import { describe, expect, it } from 'vitest';
import { createToolSearchHost } from './create-tool-search-host.js';
import type { ExecutableTool } from './executable-tool.js';
import { propertySettings, scaledTimeout } from '@tool-search/property-settings';
import { createFakeRunner } from '@tool-search/sandbox-runner/testing';
import type { ToolSearchSession } from './tool-search-session.js';

const WORDS = ['file', 'read', 'write', 'issue', 'create', 'delete', 'calendar', 'event', 'mail', 'send', 'list', 'search'];
const OWNERS = ['core', 'github', 'mail', 'cal'];

const toolsArbitrary = fc
  .array(
    fc.record({
      words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
      owner: fc.constantFrom(...OWNERS),
      plugin: fc.boolean(),
      description: fc.array(fc.constantFrom(...WORDS), { maxLength: 6 }),
      ownerOnly: fc.boolean(),
    }),
    { minLength: 1, maxLength: 14 },
  )
  .map((raw) => {
    const seen = new Set<string>();
    return raw.filter((tool) => {
      const key = `${tool.plugin}:${tool.owner}:${tool.words.join('_')}`;
      return !seen.has(key) && seen.add(key) !== undefined;
    });
  });
const policyArbitrary: fc.Arbitrary<PolicyConfig> = fc.record({
  deny: fc.array(fc.oneof(fc.constantFrom(...WORDS).map((word) => `*${word}*`), fc.constantFrom(...OWNERS).map((owner) => `*:${owner}:*`)), { maxLength: 3 }),
});

/** Tools of several owners (some as if from plugins); all go into the catalog the same way. */
function build(tools: ReadonlyArray<{ words: string[]; owner: string; plugin: boolean; description: string[]; ownerOnly: boolean }>): ExecutableTool[] {
  return tools.map((tool) => {
    const owner = tool.plugin ? `${tool.owner}-plugin` : tool.owner;
    const name = tool.words.join('_');
    return {
      name,
      owner,
      description: tool.description.join(' '),
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      ownerOnly: tool.ownerOnly,
      execute: (args: Record<string, unknown>) => `ran ${owner}/${name} ${JSON.stringify(args)}`,
    };
  });
}

/** Every route, with the same calls for both sessions; durations are the only thing that may differ. */
async function exercise(session: ToolSearchSession, probes: { queries: string[]; keys: string[] }): Promise<unknown[]> {
  const answers: unknown[] = [];
  let n = 0;
  const run = async (name: string, args: unknown) => {
    const outcome = await session.execute({ name, args, toolCallId: `p${++n}` });
    answers.push({ ...outcome, durationMs: 0 });
  };
  const format = 'openai-responses' as const;
  answers.push(session.surface(format));
  for (const query of probes.queries) {
    await run('tool_search', { query });
    await run('tool_search_code', { code: `return await tools.search(${JSON.stringify(query)})` });
  }
  for (const key of probes.keys) {
    await run('tool_describe', { id: key });
    await run('tool_call', { id: key, args: { text: 'x' } });
    // A declared name (direct mode), a hydrated name (directory mode), or unknown: whatever the mode makes it.
    await run(key.split(':').pop() ?? key, { text: 'x' });
    await run('tool_search_code', { code: `return [await tools.describe(${JSON.stringify(key)}), await tools.call(${JSON.stringify(key)}, { text: 'x' })]` });
  }
  answers.push(JSON.parse(JSON.stringify({ ...session.telemetry(), calls: session.telemetry().calls.map((call) => ({ ...call, durationMs: 0 })) })));
  return answers;
}

describe('a session on a host (property)', () => {
  it('answers every route exactly as a session on a host that never had the tools its policy denies', async () => {
    await fc.assert(
      fc.asyncProperty(
        toolsArbitrary,
        policyArbitrary,
        fc.boolean(),
        fc.array(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((words) => words.join(' ')), { minLength: 1, maxLength: 3 }),
        fc.constantFrom('tools', 'directory', 'direct', 'code'),
        async (raw, policyConfig, isOwner, queries, mode) => {
          const tools = build(raw);
          const policy = createPolicy(policyConfig);
          const context = { isOwner };
          const admitted = (tool: ExecutableTool) =>
            policy.check({ id: `openclaw:${tool.owner}:${tool.name}`, name: tool.name, source: 'openclaw', owner: tool.owner!, ownerOnly: tool.ownerOnly === true, trusted: true }, context).allowed;
          const keys = [...tools.slice(0, 4).map((tool) => `openclaw:${tool.owner}:${tool.name}`), ...tools.slice(0, 2).map((tool) => tool.name), 'openclaw:core:nothing_here'];
          const visible = tools.slice(0, 3).map((tool) => tool.name);
          const config = mode === 'direct' ? false : { mode };
          const withDenied = await createToolSearchHost({ sources: { openclaw: tools }, probe: async () => ({ ok: true, engine: 'node', nodePath: 'fake', version: 'v26', isolation: 'node-only' }), runner: createFakeRunner() });
          const withoutDenied = await createToolSearchHost({ sources: { openclaw: tools.filter(admitted) }, probe: async () => ({ ok: true, engine: 'node', nodePath: 'fake', version: 'v26', isolation: 'node-only' }), runner: createFakeRunner() });
          try {
            const a = await withDenied.openSession({ config, policy, context, visible, sessionId: 's' });
            const b = await withoutDenied.openSession({ config, policy, context, visible, sessionId: 's' });
            const seen = await exercise(a, { queries, keys });
            expect(seen).toEqual(await exercise(b, { queries, keys }));
            // (Equality with a host that never had them is the guarantee; ids the probes asked for are echoed.)
            const text = JSON.stringify(seen);
            for (const tool of tools.filter((candidate) => !admitted(candidate))) expect(text).not.toContain(`ran ${tool.owner}/${tool.name} `);
          } finally {
            await Promise.all([withDenied.close(), withoutDenied.close()]);
          }
        },
      ),
      { numRuns: propertySettings().runs(80), seed: propertySettings().seed },
    );
  }, scaledTimeout(120_000));
});

// Configs of a few layers over the same small vocabulary, so that sessions of equal, near and different rules
// follow each other on one host; a config is sometimes handed over again with its keys in another order.
const ruleArbitrary = fc.oneof(
  fc.constantFrom(...WORDS).map((word) => `*${word}*`),
  fc.constantFrom(...OWNERS).map((owner) => `openclaw:${owner}*:*`),
  fc.constantFrom('hint:destructive', 'hint:readOnly', 'group:openclaw'),
);
const layerArbitrary = fc.record({ allow: fc.array(ruleArbitrary, { maxLength: 2 }), deny: fc.array(ruleArbitrary, { maxLength: 2 }) }, { requiredKeys: [] });
const contentConfigArbitrary: fc.Arbitrary<PolicyConfig> = fc
  .tuple(layerArbitrary, fc.dictionary(fc.constantFrom('main', 'ops', '*'), layerArbitrary, { maxKeys: 2 }))
  .map(([global, agents]) => (Object.keys(agents).length === 0 ? global : { ...global, agents }));
const contextArbitrary = fc.record({ agentId: fc.constantFrom('main', 'ops', 'other'), isOwner: fc.boolean() }, { requiredKeys: [] });
/** The same content with every object's keys reversed. */
const reversedKeys = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(reversedKeys) : typeof value === 'object' && value !== null ? Object.fromEntries(Object.entries(value).reverse().map(([key, field]) => [key, reversedKeys(field)])) : value;

describe('a host caching policies by content (property)', () => {
  it('gives every session of a policy config exactly the tools that config admits, whatever sessions came before it', async () => {
    await fc.assert(
      fc.asyncProperty(
        toolsArbitrary,
        fc.array(contentConfigArbitrary, { minLength: 1, maxLength: 3 }),
        fc.array(fc.record({ pick: fc.nat(), context: contextArbitrary, reversed: fc.boolean() }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 3 }),
        async (raw, pool, steps, policyCacheSize) => {
          const tools = build(raw);
          const policyTools = tools.map((tool) => ({ id: `openclaw:${tool.owner}:${tool.name}`, name: tool.name, source: 'openclaw' as const, owner: tool.owner!, ownerOnly: tool.ownerOnly === true, trusted: true }));
          const host = await createToolSearchHost({ sources: { openclaw: tools }, policyCacheSize });
          try {
            for (const step of steps) {
              const config = pool[step.pick % pool.length]!;
              const session = await host.openSession({ config: { mode: 'tools' }, policy: (step.reversed ? reversedKeys(config) : structuredClone(config)) as PolicyConfig, context: step.context });
              const expected = createPolicy(config).filter(policyTools, step.context).map((tool) => tool.id);
              expect({ config, context: step.context, visible: policyTools.map((tool) => tool.id).filter((id) => session.tool(id) !== undefined) }).toEqual({ config, context: step.context, visible: expected });
              expect(session.telemetry().catalog.size).toBe(expected.length);
              await session.close();
            }
            expect(host.status().policyCache.views).toBeLessThanOrEqual(policyCacheSize);
          } finally {
            await host.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  }, scaledTimeout(120_000));
});
