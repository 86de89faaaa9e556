import { probeRuntime } from '@tool-search/sandbox-runner';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolSearchHost, type ToolSearchHost } from './create-tool-search-host.js';
import type { ExecutableTool } from './executable-tool.js';

// Code mode with no Node 26 at all: the QuickJS-WASM engine runs in this very process (a worker thread),
// and the host creates its runner from what the probe found.
const tools: ExecutableTool[] = [
  { name: 'add_numbers', description: 'Add two numbers.', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } }, execute: (args) => Number(args['a']) + Number(args['b']) },
  { name: 'wipe_disk', description: 'Erase the disk.', execute: () => 'wiped' },
];
let host: ToolSearchHost | undefined;
afterEach(async () => host?.close());

describe('createToolSearchHost with the QuickJS engine', () => {
  it('runs code mode on the QuickJS engine when that is what the probe finds, every call gated', async () => {
    host = await createToolSearchHost({ sources: { openclaw: tools }, probe: () => probeRuntime({ engine: 'quickjs' }) });
    const session = await host.openSession({ config: true, policy: { deny: ['wipe_disk'] } });
    expect(session.decision).toMatchObject({ mode: 'code', runtime: { engine: 'quickjs', isolation: 'wasm' } });
    const outcome = await session.execute({
      name: 'tool_search_code',
      toolCallId: 'q1',
      args: {
        code: 'const [hit] = await tools.search("add two numbers"); const sum = await tools.call(hit.id, { a: 2, b: 40 }); const wipe = await tools.call("wipe_disk", {}); return { id: hit.id, sum, wipe: wipe.status };',
      },
    });
    expect(outcome).toMatchObject({ status: 'ok', result: { value: { id: 'openclaw:core:add_numbers', sum: { status: 'ok', result: 42 }, wipe: 'error' } } });
    expect(session.telemetry().calls).toEqual([expect.objectContaining({ toolId: 'openclaw:core:add_numbers', via: 'code', status: 'ok' })]);
  });
});
