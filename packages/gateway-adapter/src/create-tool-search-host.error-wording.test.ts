// Every error a model reads is worded by modes: the same errors answered in each route (tools mode's control tools,
// code mode's run and its tools.call, native mode's direct calls and chat-loading search) carry modes' words.
// modes' error renderers are wrapped here to mark what they write, so a route that words an error itself (even
// with the same words) fails.
import type * as Modes from '@tool-search/modes';
import { createFakeRunner } from '@tool-search/sandbox-runner/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createToolSearchHost, type ToolSearchHost } from './create-tool-search-host.js';
import type { ExecutableTool } from './executable-tool.js';
import type { ToolCallOutcome } from './tool-call-outcome.js';

const MARK = '\u27e8modes\u27e9';
vi.mock('@tool-search/modes', async (importOriginal) => {
  const modes = await importOriginal<typeof Modes>();
  return {
    ...modes,
    renderErrorText: (error: Modes.ModelError) => `${MARK}${modes.renderErrorText(error)}`,
    renderErrorAnswer: (answer: Modes.ErrorAnswer) => `${MARK}${modes.renderErrorAnswer(answer)}`,
    renderBlockedAnswer: (blocked: Parameters<typeof Modes.renderBlockedAnswer>[0]) => `${MARK}${modes.renderBlockedAnswer(blocked)}`,
    renderNativeSearchError: (why: string) => `${MARK}${modes.renderNativeSearchError(why)}`,
  };
});
const { renderBlockedAnswer, renderErrorAnswer, renderErrorText, renderNativeSearchError } = await vi.importActual<typeof Modes>('@tool-search/modes');

const tool = (name: string, execute: ExecutableTool['execute']): ExecutableTool => ({ name, owner: 'desk', description: `The ${name} tool.`, inputSchema: { type: 'object', properties: { id: { type: 'string' } } }, execute });
const TOOLS = [
  tool('broken', () => {
    throw new Error('boom');
  }),
  tool('deploy_release', () => 'deployed'),
];

let host: ToolSearchHost;
beforeAll(async () => {
  host = await createToolSearchHost({ sources: { openclaw: TOOLS } });
});
afterAll(async () => {
  await host.close();
});

const policy = { requireApproval: ['deploy_release'] };
const approvals = { requestApproval: () => ({ decision: 'deny' as const, reason: 'not now' }) };

/**
 * What a model reads of an error outcome: modes' message, inside modes' frame. An `invalid_arguments` error's
 * problem is the schema's account, so only modes' words before it are known here.
 */
function expectModesError(outcome: ToolCallOutcome, code: string, error: Modes.ModelError, route: string): void {
  expect(outcome.status, route).toBe('error');
  if (outcome.status !== 'error') return;
  expect(outcome.code, route).toBe(code);
  if (error.kind === 'invalid_arguments') expect(outcome.message.startsWith(`${MARK}${renderErrorText(error)}`), `${route}: ${outcome.message}`).toBe(true);
  else expect(outcome.message, route).toBe(`${MARK}${renderErrorText(error)}`);
  expect(outcome.content, route).toBe(`${MARK}${renderErrorAnswer({ code, message: outcome.message, suggestions: outcome.suggestions })}`);
}

describe('an error in every route', () => {
  it('tools mode: each control tool\'s errors and a call\'s are worded by modes', async () => {
    const session = await host.openSession({ config: { mode: 'tools' }, policy, approvals });
    const run = (name: string, args: unknown) => session.execute({ name, args: args as Record<string, unknown>, toolCallId: `t-${name}` });
    expectModesError(await run('tool_search', { limit: 'ten' }), 'invalid_request', { kind: 'invalid_arguments', tool: 'tool_search', problem: '' }, 'tool_search');
    expectModesError(await run('tool_describe', {}), 'invalid_request', { kind: 'invalid_arguments', tool: 'tool_describe', problem: '' }, 'tool_describe');
    expectModesError(await run('tool_call', {}), 'invalid_request', { kind: 'call_needs_id' }, 'tool_call without id');
    expectModesError(await run('tool_call', { id: 'zzz_nothing' }), 'unknown_tool', { kind: 'unknown_tool', idOrName: 'zzz_nothing', mode: 'tools' }, 'tool_call unknown');
    expectModesError(await run('tool_call', { id: 'openclaw:desk:broken', args: [1] }), 'invalid_request', { kind: 'call_args_not_object', received: 'array' }, 'tool_call args not an object');
    expectModesError(await run('tool_call', { id: 'openclaw:desk:broken', args: {}, id2: 1 }), 'invalid_request', { kind: 'call_args_and_top_level', extras: ['id2'] }, 'tool_call args and top-level');
    expectModesError(await run('tool_call', { id: 'openclaw:desk:broken', args: {} }), 'tool_failed', { kind: 'tool_failed', id: 'openclaw:desk:broken', message: 'boom' }, 'tool_call failing');
    expectModesError(await run('tool_search_code', { code: 'return 1' }), 'wrong_mode', { kind: 'wrong_mode', tool: 'tool_search_code', mode: 'tools' }, 'wrong mode');
    expectModesError(await run('tool_search', 'not an object'), 'invalid_request', { kind: 'arguments_not_object', tool: 'tool_search' }, 'arguments not an object');
    const blocked = await run('tool_call', { id: 'openclaw:desk:deploy_release', args: {} });
    expect(blocked.status).toBe('blocked');
    expect(blocked.content).toBe(`${MARK}${renderBlockedAnswer({ by: 'approval', reason: 'not now', id: 'openclaw:desk:deploy_release' })}`);
    await session.close();
  });

  it('code mode: a failed run, and what tools.call answers code, are worded by modes', async () => {
    const session = await host.openSession({ config: { mode: 'code' }, runner: createFakeRunner() });
    const code = 'return [await tools.call("zzz_nothing", {}), await tools.call(7, {}), await tools.call("openclaw:desk:broken", {})];';
    const outcome = await session.execute({ name: 'tool_search_code', args: { code }, toolCallId: 'c1' });
    expect(outcome.status).toBe('ok');
    const answers = ((outcome as { result?: { value: unknown } }).result?.value ?? []) as Array<{ code: string; message: string }>;
    expect(answers.map((answer) => [answer.code, answer.message])).toEqual([
      ['unknown_tool', `${MARK}${renderErrorText({ kind: 'unknown_tool', idOrName: 'zzz_nothing', mode: 'code' })}`],
      ['invalid_request', `${MARK}${renderErrorText({ kind: 'code_argument', call: 'call', argument: 'id' })}`],
      ['tool_failed', `${MARK}${renderErrorText({ kind: 'tool_failed', id: 'openclaw:desk:broken', message: 'boom' })}`],
    ]);
    const failed = await session.execute({ name: 'tool_search_code', args: { code: 'throw new Error("no luck")' }, toolCallId: 'c2' });
    expect(failed.status).toBe('error');
    expect(failed.status === 'error' && failed.message).toMatch(new RegExp(`^${MARK}tool_search_code failed \\(\\w+\\): .*no luck`));
    expect(failed.content.startsWith(`${MARK}Error (${failed.status === 'error' ? failed.code : ''}): ${failed.status === 'error' ? failed.message : ''}`)).toBe(true);
    await session.close();
  });

  it('native mode: an Anthropic search that cannot be answered is worded by modes', async () => {
    const session = await host.openSession({ config: { mode: 'native' } });
    session.surface('anthropic');
    const answer = session.answerNativeSearch({ type: 'tool_use', id: 'tu_1', name: 'tool_search', input: {} }, 'anthropic');
    expect(answer.error).toEqual(expect.any(String));
    expect((answer.item as { content: unknown }).content).toBe(`${MARK}${renderNativeSearchError(answer.error as string)}`);
    await session.close();
  });

  it('native mode: a direct call and a chat-loading search are worded by modes', async () => {
    const session = await host.openSession({ config: { mode: 'native', nativeSearch: { chat: 'load' } } });
    session.surface('openai-chat');
    expectModesError(await session.execute({ name: 'zzz_nothing', args: {}, toolCallId: 'n1' }), 'unknown_tool', { kind: 'unknown_tool', idOrName: 'zzz_nothing', mode: 'native' }, 'native unknown');
    expectModesError(await session.execute({ name: 'tool_search', args: {}, toolCallId: 'n2' }), 'invalid_request', { kind: 'search_needs_query' }, 'native chat search');
    await session.close();
  });
});
