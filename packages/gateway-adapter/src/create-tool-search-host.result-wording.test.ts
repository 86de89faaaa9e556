// What a model reads around a tool's result is worded by modes: the untrusted-result block (and its truncation
// note), and the text of an MCP tool's content parts, in every route that renders one (tools mode's tool_call, an
// MCP tool's isError answer, code mode's run). modes' renderers are wrapped here to mark what they write, so a
// route that writes these words itself (even the same words) fails.
import type * as Modes from '@tool-search/modes';
import { createFakeRunner } from '@tool-search/sandbox-runner/testing';
import { mcpFixtureConfig } from '@tool-search/test-utils';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createToolSearchHost, type ToolSearchHost } from './create-tool-search-host.js';

const MARK = '\u27e8modes\u27e9';
vi.mock('@tool-search/modes', async (importOriginal) => {
  const modes = await importOriginal<typeof Modes>();
  return {
    ...modes,
    renderUntrustedResult: (result: Modes.UntrustedResult) => `${MARK}${modes.renderUntrustedResult(result)}`,
    renderContentPartsText: (...args: Parameters<typeof Modes.renderContentPartsText>) => `${MARK}${modes.renderContentPartsText(...args)}`,
  };
});
const { renderUntrustedResult } = await vi.importActual<typeof Modes>('@tool-search/modes');

let host: ToolSearchHost;
beforeAll(async () => {
  host = await createToolSearchHost({ sources: { mcp: [mcpFixtureConfig('fixture')] } });
});
afterAll(async () => {
  await host.close();
});

describe('a tool result in every route', () => {
  it('tools mode: an MCP tool\'s answer, cut or not, and its isError answer are worded by modes', async () => {
    const session = await host.openSession({ config: { mode: 'tools' } });
    const call = (id: string, args: Record<string, unknown>) => session.execute({ name: 'tool_call', args: { id, args }, toolCallId: `t-${id}` });
    const added = await call('mcp:fixture:add_numbers', { a: 4, b: 5 });
    expect(added.status).toBe('ok');
    expect(added.content).toBe(`${MARK}${renderUntrustedResult({ toolId: 'mcp:fixture:add_numbers', text: `${MARK}9` })}`);

    const big = await call('mcp:fixture:big_output', { size: 30_000 });
    const text = `${MARK}${'x'.repeat(30_000)}`;
    expect(big.content).toBe(`${MARK}${renderUntrustedResult({ toolId: 'mcp:fixture:big_output', text: text.slice(0, 20_000), truncation: { shown: 20_000, total: text.length } })}`);

    const failed = await call('mcp:fixture:fail_loudly', {});
    expect(failed.status).toBe('error');
    expect(failed.status === 'error' && failed.message).toContain(`:\n${MARK}${renderUntrustedResult({ toolId: 'mcp:fixture:fail_loudly', text: `${MARK}the fixture failed on purpose` })}`);
    await session.close();
  });

  it('code mode: a run that called an MCP tool is wrapped by modes', async () => {
    const session = await host.openSession({ config: { mode: 'code' }, runner: createFakeRunner() });
    const outcome = await session.execute({ name: 'tool_search_code', args: { code: 'return await tools.call("mcp:fixture:add_numbers", { a: 1, b: 2 });' }, toolCallId: 'c1' });
    expect(outcome.status).toBe('ok');
    expect(outcome.content.startsWith(`${MARK}<untrusted-tool-result tool="tool_search_code">\n`), outcome.content).toBe(true);
    await session.close();
  });
});
