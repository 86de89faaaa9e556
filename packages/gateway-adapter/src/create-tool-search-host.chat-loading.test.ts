// Native mode on OpenAI Chat with `nativeSearch.chat: 'load'`: a chat endpoint has no deferral, so our tool_search
// loads what it finds as real function definitions of the next request: appended after a byte-identical prefix,
// at most `maxLoaded` (the oldest unloaded first, in the session log), every call through policy and approvals.
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolSearchHost, type ToolSearchHost } from './create-tool-search-host.js';
import type { ExecutableTool } from './executable-tool.js';

const tool = (name: string, description: string): ExecutableTool => ({
  name,
  owner: 'ops',
  description,
  inputSchema: { type: 'object', properties: { target: { type: 'string' } }, required: ['target'] },
  execute: (args) => `${name} ran on ${String(args['target'])}`,
});
const TOOLS = [
  tool('restart_service', 'Restart a service on the host.'),
  tool('deploy_release', 'Deploy a release to production.'),
  tool('rollback_release', 'Roll back the last production release.'),
  tool('purge_cache', 'Purge the CDN cache of a site.'),
  tool('rotate_keys', 'Rotate the API keys of a service.'),
];

let host: ToolSearchHost;
beforeAll(async () => {
  host = await createToolSearchHost({ sources: { openclaw: TOOLS } });
});
afterAll(async () => {
  await host.close();
});

/** A session whose log lines are collected. */
async function open(options: { maxLoaded?: number; policy?: Record<string, unknown>; approve?: boolean } = {}) {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new PassThrough();
  destination.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  const session = await host.openSession({
    config: { mode: 'native', nativeSearch: { chat: 'load', ...(options.maxLoaded === undefined ? {} : { maxLoaded: options.maxLoaded }) } },
    ...(options.policy ? { policy: options.policy } : {}),
    ...(options.approve === undefined ? {} : { approvals: { requestApproval: () => (options.approve ? { decision: 'allow' as const } : { decision: 'deny' as const, reason: 'not now' }) } }),
    sessionLog: { destination },
  });
  return { session, lines };
}
const names = (tools: ReadonlyArray<{ function: { name: string } }>) => tools.map((entry) => entry.function.name);

describe('native mode on OpenAI Chat with chat loading', () => {
  it('declares tool_search alone, then each search appends what it loads after the same bytes', async () => {
    const { session } = await open();
    const first = session.surface('openai-chat');
    expect(first.mode).toBe('native');
    expect(names(first.tools)).toEqual(['tool_search']);
    const answer = await session.execute({ name: 'tool_search', args: { query: 'deploy a release to production', limit: 1 }, toolCallId: 's1' });
    expect(answer.status).toBe('ok');
    expect(JSON.parse(answer.content)).toMatchObject({ loaded: [{ name: 'deploy_release' }] });
    const second = session.surface('openai-chat');
    expect(names(second.tools)).toEqual(['tool_search', 'deploy_release']);
    const bytes = (tools: unknown[]) => JSON.stringify(tools);
    expect(bytes(second.tools).startsWith(bytes(first.tools).slice(0, -1))).toBe(true);
    await session.execute({ name: 'tool_search', args: { query: 'purge the cdn cache', limit: 1 }, toolCallId: 's2' });
    const third = session.surface('openai-chat');
    expect(names(third.tools)).toEqual(['tool_search', 'deploy_release', 'purge_cache']);
    expect(bytes(third.tools).startsWith(bytes(second.tools).slice(0, -1))).toBe(true);
    const call = await session.execute({ name: 'deploy_release', args: { target: 'v2' }, toolCallId: 'c1' });
    expect(call).toMatchObject({ status: 'ok', result: 'deploy_release ran on v2', tool: { id: 'openclaw:ops:deploy_release' } });
    await session.close();
  });

  it('unloads the oldest loaded tool past maxLoaded and says so in the session log', async () => {
    const { session, lines } = await open({ maxLoaded: 2 });
    for (const [index, query] of ['restart a service', 'rotate api keys', 'roll back the release'].entries()) {
      await session.execute({ name: 'tool_search', args: { query, limit: 1 }, toolCallId: `s${index}` });
    }
    expect(names(session.surface('openai-chat').tools)).toEqual(['tool_search', 'rotate_keys', 'rollback_release']);
    expect(lines.filter((line) => line['event'] === 'native.unload')).toEqual([
      expect.objectContaining({ format: 'openai-chat', unloadedIds: ['openclaw:ops:restart_service'], maxLoaded: 2 }),
    ]);
    await session.close();
  });

  it('never loads a tool the policy refuses, and a loaded tool that needs approval still asks for it', async () => {
    const { session } = await open({ policy: { deny: ['purge_cache'], requireApproval: ['deploy_release'] }, approve: false });
    const refused = await session.execute({ name: 'tool_search', args: { query: 'purge the cdn cache of a site', limit: 1 }, toolCallId: 's1' });
    expect(refused.content).not.toContain('purge_cache');
    expect(await session.execute({ name: 'purge_cache', args: { target: 'x' }, toolCallId: 'c0' })).toMatchObject({ status: 'error', code: 'unknown_tool' });
    await session.execute({ name: 'tool_search', args: { query: 'deploy a release', limit: 1 }, toolCallId: 's2' });
    expect(names(session.surface('openai-chat').tools)).toContain('deploy_release');
    const call = await session.execute({ name: 'deploy_release', args: { target: 'v3' }, toolCallId: 'c1' });
    expect(call.status).toBe('blocked');
    await session.close();
  });

  it('keeps tools mode on OpenAI Chat without chat loading', async () => {
    const session = await host.openSession({ config: { mode: 'native' } });
    expect(session.surface('openai-chat').mode).toBe('tools');
    await session.close();
  });
});
