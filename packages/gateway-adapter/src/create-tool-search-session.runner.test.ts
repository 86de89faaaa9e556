import { createRunner, probeRuntime, type Runner } from '@tool-search/sandbox-runner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolSearchSession } from './create-tool-search-session.js';
import type { ToolSearchSession } from './tool-search-session.js';
import type { ExecutableTool } from './executable-tool.js';

// Code mode through a real sandboxed child (the pinned Node 26 the workspace installs): the body's
// tools.search/call come back over the runner's bridge into this session, and through authorizeCall.
const received: Record<string, unknown>[] = [];
const tools: ExecutableTool[] = [
  {
    name: 'create_issue',
    description: 'Create an issue in a repository with a title.',
    inputSchema: { type: 'object', properties: { repo: { type: 'string' }, title: { type: 'string' } }, required: ['repo', 'title'] },
    execute: (args) => {
      received.push(args);
      return { number: 42, title: args['title'] };
    },
  },
  { name: 'wipe_disk', description: 'Erase the disk.', execute: () => 'wiped' },
];

let runner: Runner;
let session: ToolSearchSession;
beforeAll(async () => {
  const probe = await probeRuntime();
  if (!probe.ok) throw new Error(`the workspace's pinned Node runtime should pass the probe: ${probe.reason}`);
  runner = createRunner({ nodePath: probe.nodePath, pool: { size: 0 } });
  session = await createToolSearchSession({
    config: true,
    policy: { deny: ['wipe_disk'] },
    sources: { openclaw: tools },
    runner,
    probe: async () => probe,
  });
});
afterAll(async () => {
  await session?.close();
  await runner?.close();
});

describe('createToolSearchSession in code mode (real runner)', () => {
  it('runs model code that searches, calls and returns, with every call gated', async () => {
    const outcome = await session.execute({
      toolCallId: 'code_1',
      name: 'tool_search_code',
      args: {
        code: [
          'const hits = await tools.search("create an issue");',
          'const denied = await tools.call("openclaw:core:wipe_disk", {});',
          'const made = await tools.call(hits[0].id, { repo: "a/b", title: "Bug" });',
          'console.log("hits", hits.length);',
          'return { first: hits[0].id, made, denied: denied.status + ":" + denied.code };',
        ].join('\n'),
      },
    });
    expect(outcome).toMatchObject({
      status: 'ok',
      kind: 'code',
      result: {
        value: {
          first: 'openclaw:core:create_issue',
          made: { status: 'ok', result: { number: 42, title: 'Bug' } },
          denied: 'error:unknown_tool',
        },
        calls: [
          { id: 'openclaw:core:wipe_disk', status: 'error', detail: 'unknown_tool' },
          { id: 'openclaw:core:create_issue', status: 'ok' },
        ],
        logs: [{ level: 'log', text: 'hits 1' }],
      },
    });
    expect(received).toEqual([{ repo: 'a/b', title: 'Bug' }]);
    expect(session.telemetry().counts).toMatchObject({ codeRuns: 1, searches: 1, calls: 1, errors: 1 });
  });

  it('reports a body that throws as a code_failed error', async () => {
    const outcome = await session.execute({ toolCallId: 'code_2', name: 'tool_search_code', args: { code: 'throw new Error("nope")' } });
    expect(outcome).toMatchObject({ status: 'error', code: 'code_failed' });
    expect(outcome.status === 'error' && outcome.message).toContain('nope');
  });
});
