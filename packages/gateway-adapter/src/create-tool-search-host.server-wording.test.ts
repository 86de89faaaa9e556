// The host's reasons a model reads (a server that is down, a tool its server removed, arguments its validator
// refused) are data that modes words:
// modes' error renderer is wrapped here to mark each error with its kind, so a route that relays the host's own
// sentence (even the same words, as a `relayed` error) fails.
import type * as Modes from '@tool-search/modes';
import { scaledTimeout } from '@tool-search/property-settings';
import { mcpFixtureConfig } from '@tool-search/test-utils';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createToolSearchHost, type ToolSearchHost } from './create-tool-search-host.js';

const mark = (kind: string) => `\u27e8modes:${kind}\u27e9`;
vi.mock('@tool-search/modes', async (importOriginal) => {
  const modes = await importOriginal<typeof Modes>();
  return { ...modes, renderErrorText: (error: Modes.ModelError) => `\u27e8modes:${error.kind}\u27e9${modes.renderErrorText(error)}` };
});
const { renderErrorText } = await vi.importActual<typeof Modes>('@tool-search/modes');

let host: ToolSearchHost;
beforeAll(async () => {
  host = await createToolSearchHost({
    sources: {
      mcp: [mcpFixtureConfig('fixture'), { name: 'broken', transport: 'stdio', command: process.execPath, args: ['-e', 'console.error("Please set BROKEN_API_TOKEN"); process.exit(3)'] }],
    },
  });
});
afterAll(async () => {
  await host.close();
});

describe('the host\'s reasons, as the model reads them', () => {
  it('a call to a tool of a server that is down names the server, in modes\' words', async () => {
    const session = await host.openSession({ config: { mode: 'tools' } });
    const outcome = await session.execute({ name: 'tool_call', args: { id: 'mcp:broken:anything', args: {} }, toolCallId: 'b1' });
    expect(outcome.status).toBe('error');
    expect(outcome.status === 'error' && outcome.message, JSON.stringify(outcome)).toMatch(/^\u27e8modes:server_not_ready\u27e9MCP server "broken" is \w+: /);
    await session.close();
  });

  it('arguments the host\'s validator refuses are worded by modes', async () => {
    const session = await host.openSession({ config: { mode: 'tools' } });
    const outcome = await session.execute({ name: 'tool_call', args: { id: 'mcp:fixture:add_numbers', args: { a: 'four', b: 5 } }, toolCallId: 'v1' });
    expect(outcome.status === 'error' && outcome.code).toBe('invalid_args');
    const words = renderErrorText({ kind: 'tool_arguments_refused', id: 'mcp:fixture:add_numbers', problems: [{ kind: 'schema', where: 'args.a', message: 'must be number' }], suggestions: {} });
    expect(outcome.status === 'error' && outcome.message.startsWith(`${mark('tool_arguments_refused')}${words} Expected: `), JSON.stringify(outcome)).toBe(true);
    await session.close();
  });

  it('a call to a tool its server removed says so, in modes\' words', async () => {
    const session = await host.openSession({ config: { mode: 'tools' } });
    const call = (id: string, toolCallId: string) => session.execute({ name: 'tool_call', args: { id, args: {} }, toolCallId });
    expect((await call('mcp:fixture:change_tools', 'r1')).status).toBe('ok');
    await vi.waitFor(async () => {
      const outcome = await call('mcp:fixture:remove_me', 'r2');
      expect(outcome.status === 'error' && outcome.message).toBe(
        `${mark('tool_removed')}${renderErrorText({ kind: 'tool_removed', id: 'mcp:fixture:remove_me', server: 'fixture' })}`,
      );
    }, { timeout: scaledTimeout(5_000) });
    await session.close();
  });
});
