import { describe, expect, it } from 'vitest';
import { renderArgsProblem, renderBlockedAnswer, renderErrorAnswer, renderErrorText, renderNativeSearchError, type ModelError } from './index.js';

// Each kind and the exact words a model reads for it (the conformance and e2e suites match some of them).
const WORDS: ReadonlyArray<[ModelError, string]> = [
  [{ kind: 'invalid_arguments', tool: 'tool_search', problem: 'args.limit: expected number' }, 'Invalid tool_search arguments: args.limit: expected number'],
  [{ kind: 'arguments_not_object', tool: 'tool_call' }, 'Arguments of tool_call must be a JSON object'],
  [{ kind: 'wrong_mode', tool: 'tool_search_code', mode: 'tools' }, 'tool_search_code is not available in tools mode'],
  [{ kind: 'search_needs_query' }, 'tool_search needs { query } (or { queries }): the words of the tool you need, e.g. "send email"'],
  [{ kind: 'call_needs_id' }, 'tool_call needs { id, args }: id is the tool id from tool_search'],
  [{ kind: 'no_sandbox' }, 'No sandbox runner is available for tool_search_code'],
  [{ kind: 'server_starting', server: 'slow', waitedMs: 5000 }, 'MCP server "slow" is starting: its tools are not listed yet (waited 5000 ms). Try again in a moment.'],
  [{ kind: 'unknown_tool', idOrName: 'nope', mode: 'tools' }, 'No tool "nope" is available to you. Find tools with tool_search.'],
  [{ kind: 'unknown_tool', idOrName: 'nope', mode: 'code' }, 'No tool "nope" is available to you. Find tools with tools.search inside tool_search_code.'],
  [{ kind: 'unknown_tool', idOrName: 'nope', mode: 'direct' }, 'No tool "nope" is available to you. Find tools with the declared tools.'],
  [{ kind: 'invalid_tool_arguments', id: 'mcp:fs:read', problem: 'too deep' }, 'Invalid arguments for mcp:fs:read: too deep'],
  [{ kind: 'tool_gone', id: 'mcp:fs:read' }, 'Tool mcp:fs:read is no longer available'],
  [{ kind: 'upstream_error', server: 'fs', toolName: 'read', content: 'no such file' }, 'MCP server "fs" reported an error from read:\nno such file'],
  [{ kind: 'tool_timeout', id: 'openclaw:x:y', timeoutMs: 30000 }, 'Tool openclaw:x:y did not finish within 30000 ms'],
  [{ kind: 'tool_cancelled', id: 'openclaw:x:y' }, 'The call to openclaw:x:y was cancelled'],
  [{ kind: 'tool_failed', id: 'openclaw:x:y', message: 'boom' }, 'Tool openclaw:x:y failed: boom'],
  [{ kind: 'code_failed', code: 'runtime_error', message: 'x is not defined' }, 'tool_search_code failed (runtime_error): x is not defined'],
  [{ kind: 'client_tool_from_code', id: 'ask_user' }, 'ask_user is a client tool: call it directly, not from code'],
  [{ kind: 'client_tool_from_code' }, 'client tools cannot run from code'],
  [{ kind: 'client_tool_over_mcp', name: 'ask_user' }, 'Tool ask_user is a client tool: this server cannot run it'],
  [{ kind: 'call_args_not_object', received: 'non-JSON string' }, "tool_call `args` must be an object of the tool's parameters (received a string that is not JSON)"],
  [{ kind: 'call_args_not_object', received: 'array' }, "tool_call `args` must be an object of the tool's parameters (received an array)"],
  [{ kind: 'call_args_not_object', received: 'number' }, "tool_call `args` must be an object of the tool's parameters (received number)"],
  [{ kind: 'call_args_and_top_level', extras: ['body', 'date'] }, 'tool_call received both `args` and top-level parameters ("body", "date"); put every parameter inside `args`'],
  [{ kind: 'runs_busy', limit: 4, scope: 'server', queue: { waiting: 16 } }, 'Busy: 4 code runs are running on this server (the limit) and 16 more are waiting; try again shortly, or do the work in fewer runs'],
  [{ kind: 'runs_busy', limit: 2, scope: 'session', queue: { waitedMs: 10000 } }, 'Busy: 2 code runs are running on this session (the limit) and this run waited 10000 ms for one; try again shortly, or do the work in fewer runs'],
  [{ kind: 'run_cancelled', waited: false }, 'The run was cancelled before it started'],
  [{ kind: 'run_cancelled', waited: true }, 'The run was cancelled while it waited for a slot'],
  [{ kind: 'code_argument', call: 'call', argument: 'id' }, 'tools.call(id, args): id must be a string'],
  [{ kind: 'code_argument', call: 'call', argument: 'args' }, 'tools.call(id, args): args must be an object'],
  [{ kind: 'code_argument', call: 'search', argument: 'query' }, 'tools.search(query, { limit }): query must be a string'],
  [{ kind: 'code_argument', call: 'describe', argument: 'id' }, 'tools.describe(id): id must be a string'],
  [{ kind: 'server_not_configured', server: 'wx' }, 'No MCP server "wx" is configured'],
  [{ kind: 'server_not_ready', server: 'wx', state: 'unavailable', reason: 'exited with code 1' }, 'MCP server "wx" is unavailable: exited with code 1'],
  [{ kind: 'tool_removed', id: 'mcp:wx:now', server: 'wx' }, 'Tool mcp:wx:now was removed by MCP server "wx"'],
  [
    { kind: 'tool_arguments_refused', id: 'mcp:gh:create_issue', problems: [{ kind: 'missing_parameter', name: 'title', where: 'args' }, { kind: 'unknown_parameter', name: 'titel', where: 'args' }], suggestions: { titel: ['title'] }, signature: '{ title: string }' },
    'Invalid arguments for mcp:gh:create_issue: missing required parameter "title"; unknown parameter "titel". "titel": did you mean "title"? Expected: { title: string }',
  ],
  [{ kind: 'tool_unlisted', id: 'mcp:wx:now', server: 'wx' }, 'Tool mcp:wx:now is no longer listed by MCP server "wx"'],
  [{ kind: 'relayed', message: 'No tool "x"; did you mean a?' }, 'No tool "x"; did you mean a?'],
];

describe('renderErrorText', () => {
  it.each(WORDS)('words %j as the model reads it', (error, words) => {
    expect(renderErrorText(error)).toBe(words);
  });

  it('repeats at most 200 characters of an unknown name and 2,000 of a tool failure', () => {
    expect(renderErrorText({ kind: 'unknown_tool', idOrName: 'n'.repeat(500), mode: 'tools' })).toBe(`No tool "${'n'.repeat(200)}" is available to you. Find tools with tool_search.`);
    expect(renderErrorText({ kind: 'tool_failed', id: 't', message: 'm'.repeat(5_000) })).toBe(`Tool t failed: ${'m'.repeat(2_000)}`);
  });
});

describe('renderErrorAnswer', () => {
  it('frames the message with its code and adds the suggestions it does not already name', () => {
    expect(renderErrorAnswer({ code: 'unknown_tool', message: 'No tool "x" is available to you.' })).toBe('Error (unknown_tool): No tool "x" is available to you.');
    expect(renderErrorAnswer({ code: 'unknown_tool', message: 'No tool "x".', suggestions: ['a:b', 'c:d'] })).toBe('Error (unknown_tool): No tool "x".\nDid you mean: a:b, c:d');
    expect(renderErrorAnswer({ code: 'invalid_request', message: 'Ambiguous: did you mean a:b, c:d?', suggestions: ['a:b', 'c:d'] })).toBe('Error (invalid_request): Ambiguous: did you mean a:b, c:d?');
    expect(renderErrorAnswer({ code: 'invalid_request', message: 'm', suggestions: [] })).toBe('Error (invalid_request): m');
  });
});

describe('renderNativeSearchError', () => {
  it('is the text of an Anthropic search answer that could not be given', () => {
    expect(renderNativeSearchError('tool_search needs a query')).toBe('Error: tool_search needs a query');
  });
});

describe('renderBlockedAnswer', () => {
  it('says who blocked the call, why, and not to retry it', () => {
    expect(renderBlockedAnswer({ by: 'policy', reason: 'deny rule', id: 'mcp:fs:delete' })).toBe('Blocked (policy): deny rule. The call to mcp:fs:delete did not run; do not retry it.');
  });
});

describe('renderArgsProblem', () => {
  it('words each kind, inside a nested path too, and cuts a schema\'s own long text', () => {
    expect(renderArgsProblem({ kind: 'unknown_parameter', name: 'x'.repeat(150), where: 'args' })).toBe(`unknown parameter "${'x'.repeat(100)}"`);
    expect(renderArgsProblem({ kind: 'missing_parameter', name: 'id', where: 'args.owner' })).toBe('missing required parameter "id" in args.owner');
    expect(renderArgsProblem({ kind: 'not_one_of', where: 'args.state', allowed: ['open', 'closed', ...Array.from({ length: 20 }, (_, i) => i)] })).toBe(
      'args.state must be one of "open", "closed", 0, 1, 2, 3, 4, 5, 6, 7',
    );
    expect(renderArgsProblem({ kind: 'schema', where: 'args.a', message: 'y'.repeat(400) })).toBe(`args.a ${'y'.repeat(300)}`);
    expect(renderArgsProblem({ kind: 'schema', where: 'args', message: undefined })).toBe('args is invalid');
  });
});
