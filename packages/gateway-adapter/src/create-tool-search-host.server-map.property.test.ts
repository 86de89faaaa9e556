// Property: the server map a session pages through (`tool_search({})`, `{ query, servers_offset }`, weak answers,
// `{ server }` and `{ server, query }`) names every server its policy admits exactly once, within the page budget,
// and answers exactly as a session on a host that never had the servers and tools its policy refuses.
import fc from 'fast-check';
import { SERVER_MAP_PAGE_BYTES, type ServerMapPage } from '@tool-search/modes';
import { createPolicy, type PolicyConfig } from '@tool-search/policy';
import { propertySettings, scaledTimeout } from '@tool-search/property-settings';
import { describe, expect, it } from 'vitest';
import { createToolSearchHost } from './create-tool-search-host.js';
import type { ExecutableTool } from './executable-tool.js';
import type { ToolSearchSession } from './tool-search-session.js';

const WORDS = ['file', 'read', 'write', 'issue', 'create', 'delete', 'calendar', 'event', 'mail', 'send', 'list', 'search'];
const OWNERS = Array.from({ length: 40 }, (_, index) => `srv${index}`);

const toolsArbitrary = fc
  .array(
    fc.record({
      owner: fc.constantFrom(...OWNERS),
      words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
      description: fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }),
    }),
    { minLength: 1, maxLength: 120 },
  )
  .map((raw) => {
    const seen = new Set<string>();
    return raw.filter((tool) => {
      const key = `${tool.owner}:${tool.words.join('_')}`;
      return !seen.has(key) && seen.add(key) !== undefined;
    });
  });
const policyArbitrary: fc.Arbitrary<PolicyConfig> = fc.record({
  deny: fc.array(fc.oneof(fc.constantFrom(...WORDS).map((word) => `*${word}*`), fc.constantFrom(...OWNERS).map((owner) => `*:${owner}:*`)), { maxLength: 4 }),
});

function build(raw: ReadonlyArray<{ owner: string; words: string[]; description: string[] }>): ExecutableTool[] {
  return raw.map((tool) => ({ name: tool.words.join('_'), owner: tool.owner, description: tool.description.join(' '), execute: () => 'ok' }));
}

/** Every page of the map from `first` on, following `next`, and the raw answers (durations zeroed). */
async function pages(session: ToolSearchSession, first: Record<string, unknown>): Promise<{ answers: string[]; owners: string[] }> {
  const answers: string[] = [];
  const owners: string[] = [];
  let args: Record<string, unknown> | undefined = first;
  for (let n = 0; args !== undefined && n < 100; n++) {
    const outcome = await session.execute({ name: 'tool_search', args, toolCallId: `p${n}` });
    answers.push(outcome.content);
    if (outcome.status !== 'ok') break;
    const page = JSON.parse(outcome.content) as ServerMapPage;
    expect(Buffer.byteLength(outcome.content)).toBeLessThanOrEqual(SERVER_MAP_PAGE_BYTES);
    owners.push(...page.servers.map((server) => server.owner));
    args = page.next;
  }
  return { answers, owners };
}

describe('the server map of a session (property)', () => {
  it('pages every admitted server once and answers as a host that never had the refused ones', async () => {
    await fc.assert(
      fc.asyncProperty(
        toolsArbitrary,
        policyArbitrary,
        fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((words) => words.join(' ')),
        fc.constantFrom(...OWNERS),
        async (raw, policyConfig, query, probe) => {
          const tools = build(raw);
          const policy = createPolicy(policyConfig);
          const admitted = (tool: ExecutableTool) => policy.check({ id: `openclaw:${tool.owner}:${tool.name}`, name: tool.name, source: 'openclaw', owner: tool.owner!, ownerOnly: false, trusted: true }, {}).allowed;
          const withRefused = await createToolSearchHost({ sources: { openclaw: tools } });
          const without = await createToolSearchHost({ sources: { openclaw: tools.filter(admitted) } });
          try {
            const a = await withRefused.openSession({ config: { mode: 'tools' }, policy });
            const b = await without.openSession({ config: { mode: 'tools' }, policy });
            const expectedOwners = new Set(tools.filter(admitted).map((tool) => tool.owner));
            for (const first of [{}, { query, servers_offset: 0 }]) {
              const seen = await pages(a, first);
              expect(seen).toEqual(await pages(b, first));
              expect(seen.owners.length).toBe(expectedOwners.size);
              expect(new Set(seen.owners)).toEqual(expectedOwners);
            }
            for (const args of [{ query }, { server: probe }, { server: probe, query }]) {
              const [x, y] = await Promise.all([a.execute({ name: 'tool_search', args, toolCallId: 'q' }), b.execute({ name: 'tool_search', args, toolCallId: 'q' })]);
              expect({ ...x, durationMs: 0 }).toEqual({ ...y, durationMs: 0 });
            }
          } finally {
            await Promise.all([withRefused.close(), without.close()]);
          }
        },
      ),
      { numRuns: propertySettings().runs(60), seed: propertySettings().seed },
    );
  }, scaledTimeout(180_000));
});
