// Every error a model reads, worded once. gateway-adapter (and the MCP front) say what went wrong as data, a
// `ModelError`; the words are here, the same in tools, code and native mode. A message another package wrote (the
// catalog's "did you mean", an MCP server's failure, the sandbox's error) is relayed as it is.
import type { Mode } from './types.js';
import { TOOL_CALL, TOOL_SEARCH, TOOL_SEARCH_CODE } from './control-tools.js';

/** The code-mode bridge calls whose arguments code can get wrong. */
export type CodeBridgeCall = 'call' | 'search' | 'describe';

/**
 * One way a tool call's arguments failed the tool's schema, as data: `where` is the path (`args`, `args.labels.0`).
 * `allowed` are an enum's values; `message` is the schema validator's own account (relayed, cut short).
 */
export type ArgsProblem =
  | { kind: 'unknown_parameter'; name: string; where: string }
  | { kind: 'missing_parameter'; name: string; where: string }
  | { kind: 'not_one_of'; where: string; allowed: readonly unknown[] }
  | { kind: 'schema'; where: string; message?: string | undefined };

/** What went wrong, as data: one kind per error a model can read, with the facts its words name. */
export type ModelError =
  /** A control tool's arguments failed its schema; `problem` is the schema's account of them. */
  | { kind: 'invalid_arguments'; tool: string; problem: string }
  /** A tool call's arguments were not a JSON object. */
  | { kind: 'arguments_not_object'; tool: string }
  /** A control tool the session's mode does not serve. */
  | { kind: 'wrong_mode'; tool: string; mode: Mode }
  /** `tool_search` with neither `query` nor `queries` where a search is the only answer (native chat loading). */
  | { kind: 'search_needs_query' }
  /** `tool_call` without a tool id. */
  | { kind: 'call_needs_id' }
  /** `tool_search_code` in a session with no sandbox runner. */
  | { kind: 'no_sandbox' }
  /** A control tool named an MCP server that is still making its first connection after the wait. */
  | { kind: 'server_starting'; server: string; waitedMs: number }
  /** No tool of that id or name is available to the session; `mode` says where to find tools. */
  | { kind: 'unknown_tool'; idOrName: string; mode: Mode }
  /** A catalog tool's arguments were refused before it ran; `problem` is what was wrong with them. */
  | { kind: 'invalid_tool_arguments'; id: string; problem: string }
  /** The tool went away between being found and being run. */
  | { kind: 'tool_gone'; id: string }
  /** An MCP server answered the call with `isError`; `content` is its (rendered) answer. */
  | { kind: 'upstream_error'; server: string; toolName: string; content: string }
  /** A tool of this process did not finish in time. */
  | { kind: 'tool_timeout'; id: string; timeoutMs: number }
  /** The call was cancelled by its caller. */
  | { kind: 'tool_cancelled'; id: string }
  /** A tool of this process threw; `message` is its error's. */
  | { kind: 'tool_failed'; id: string; message: string }
  /** A `tool_search_code` run failed; `code` is the runner's error code. */
  | { kind: 'code_failed'; code: string; message: string }
  /** Code asked `tools.call` for a client tool (`id` as code named it; without one, a client outcome). */
  | { kind: 'client_tool_from_code'; id?: string }
  /** A client tool reached an MCP front, which cannot run it. */
  | { kind: 'client_tool_over_mcp'; name: string }
  /** `tool_call`'s `args` are not an object: `received` is `'non-JSON string'`, `'array'` or the value's `typeof`. */
  | { kind: 'call_args_not_object'; received: string }
  /** `tool_call` got both `args` and top-level parameters (`extras`): which the tool gets is ambiguous. */
  | { kind: 'call_args_and_top_level'; extras: readonly string[] }
  /** No code-run slot: `limit` runs hold this server's or session's slots, and `waiting` more wait, or this run waited `waitedMs`. */
  | { kind: 'runs_busy'; limit: number; scope: 'server' | 'session'; queue: { waiting: number } | { waitedMs: number } }
  /** The run was cancelled before it got a slot (`waited`: while it waited for one). */
  | { kind: 'run_cancelled'; waited: boolean }
  /** Code passed a bridge call an argument of the wrong type. */
  | { kind: 'code_argument'; call: CodeBridgeCall; argument: 'id' | 'args' | 'query' }
  /** A tool call or read named an MCP server this host has no configuration for. */
  | { kind: 'server_not_configured'; server: string }
  /** An MCP server is not ready: `state` is where it is (`starting`, `unavailable`, ...), `reason` why. */
  | { kind: 'server_not_ready'; server: string; state: string; reason: string }
  /** The tool's MCP server removed it from its list. */
  | { kind: 'tool_removed'; id: string; server: string }
  /** The tool's MCP server came back without it. */
  | { kind: 'tool_unlisted'; id: string; server: string }
  /** A catalog tool's final arguments failed its schema: the problems, "did you mean" names (given -> near) and its signature. */
  | { kind: 'tool_arguments_refused'; id: string; problems: readonly ArgsProblem[]; suggestions: Readonly<Record<string, readonly string[]>>; signature?: string | undefined }
  /** A message another package wrote, relayed as it is. */
  | { kind: 'relayed'; message: string };

/** Where a model finds tools, by mode: named in an unknown-tool error. */
const SEARCH_HINTS: Readonly<Record<Mode, string>> = {
  code: `tools.search inside ${TOOL_SEARCH_CODE}`,
  tools: TOOL_SEARCH,
  directory: TOOL_SEARCH,
  native: TOOL_SEARCH,
  direct: 'the declared tools',
};

const BRIDGE_SIGNATURES: Readonly<Record<CodeBridgeCall, string>> = {
  call: 'tools.call(id, args)',
  search: 'tools.search(query, { limit })',
  describe: 'tools.describe(id)',
};

/** What `tool_call` received instead of an object, in words (a `typeof` not listed is said as it is). */
const RECEIVED: Readonly<Record<string, string>> = { 'non-JSON string': 'a string that is not JSON', array: 'an array' };

/** How much of a failed local tool's message an answer carries. */
const TOOL_FAILURE_CHARS = 2_000;
/** How much of an unknown id or name an answer repeats. */
const UNKNOWN_NAME_CHARS = 200;

type Wording = { [K in ModelError['kind']]: (error: Extract<ModelError, { kind: K }>) => string };

const WORDING: Wording = {
  invalid_arguments: ({ tool, problem }) => `Invalid ${tool} arguments: ${problem}`,
  arguments_not_object: ({ tool }) => `Arguments of ${tool} must be a JSON object`,
  wrong_mode: ({ tool, mode }) => `${tool} is not available in ${mode} mode`,
  search_needs_query: () => `${TOOL_SEARCH} needs { query } (or { queries }): the words of the tool you need, e.g. "send email"`,
  call_needs_id: () => `${TOOL_CALL} needs { id, args }: id is the tool id from ${TOOL_SEARCH}`,
  no_sandbox: () => `No sandbox runner is available for ${TOOL_SEARCH_CODE}`,
  server_starting: ({ server, waitedMs }) => `MCP server "${server}" is starting: its tools are not listed yet (waited ${waitedMs} ms). Try again in a moment.`,
  unknown_tool: ({ idOrName, mode }) => `No tool "${idOrName.slice(0, UNKNOWN_NAME_CHARS)}" is available to you. Find tools with ${SEARCH_HINTS[mode]}.`,
  invalid_tool_arguments: ({ id, problem }) => `Invalid arguments for ${id}: ${problem}`,
  tool_gone: ({ id }) => `Tool ${id} is no longer available`,
  upstream_error: ({ server, toolName, content }) => `MCP server "${server}" reported an error from ${toolName}:\n${content}`,
  tool_timeout: ({ id, timeoutMs }) => `Tool ${id} did not finish within ${timeoutMs} ms`,
  tool_cancelled: ({ id }) => `The call to ${id} was cancelled`,
  tool_failed: ({ id, message }) => `Tool ${id} failed: ${message.slice(0, TOOL_FAILURE_CHARS)}`,
  code_failed: ({ code, message }) => `${TOOL_SEARCH_CODE} failed (${code}): ${message}`,
  client_tool_from_code: ({ id }) => (id === undefined ? 'client tools cannot run from code' : `${id} is a client tool: call it directly, not from code`),
  client_tool_over_mcp: ({ name }) => `Tool ${name} is a client tool: this server cannot run it`,
  call_args_not_object: ({ received }) => `${TOOL_CALL} \`args\` must be an object of the tool's parameters (received ${RECEIVED[received] ?? received})`,
  call_args_and_top_level: ({ extras }) =>
    `${TOOL_CALL} received both \`args\` and top-level parameters (${extras.map((key) => `"${key}"`).join(', ')}); put every parameter inside \`args\``,
  runs_busy: ({ limit, scope, queue }) =>
    `Busy: ${limit} code runs are running on this ${scope} (the limit) ${'waiting' in queue ? `and ${queue.waiting} more are waiting` : `and this run waited ${queue.waitedMs} ms for one`}; try again shortly, or do the work in fewer runs`,
  run_cancelled: ({ waited }) => (waited ? 'The run was cancelled while it waited for a slot' : 'The run was cancelled before it started'),
  code_argument: ({ call, argument }) => `${BRIDGE_SIGNATURES[call]}: ${argument} must be ${argument === 'args' ? 'an object' : 'a string'}`,
  server_not_configured: ({ server }) => `No MCP server "${server}" is configured`,
  server_not_ready: ({ server, state, reason }) => `MCP server "${server}" is ${state}: ${reason}`,
  tool_removed: ({ id, server }) => `Tool ${id} was removed by MCP server "${server}"`,
  tool_unlisted: ({ id, server }) => `Tool ${id} is no longer listed by MCP server "${server}"`,
  tool_arguments_refused: ({ id, problems, suggestions, signature }) => {
    const hints = Object.entries(suggestions).map(([name, near]) => `"${name}": did you mean ${near.map((n) => `"${n}"`).join(' or ')}?`);
    return [
      `Invalid arguments for ${id}: ${problems.map(renderArgsProblem).join('; ')}.`,
      ...(hints.length > 0 ? [hints.join(' ')] : []),
      ...(signature ? [`Expected: ${signature}`] : []),
    ].join(' ');
  },
  relayed: ({ message }) => message,
};

/** How much of a schema's own text (an unknown name, an enum value, the validator's message) a problem repeats. */
const ARGS_NAME_CHARS = 100;
const ARGS_ENUM_VALUES = 10;
const ARGS_MESSAGE_CHARS = 300;

/** One argument problem in words, e.g. `missing required parameter "title"` or `args.state must be one of "open", "closed"`. */
export function renderArgsProblem(problem: ArgsProblem): string {
  const inside = problem.where === 'args' ? '' : ` in ${problem.where}`;
  switch (problem.kind) {
    case 'unknown_parameter':
      return `unknown parameter "${problem.name.slice(0, ARGS_NAME_CHARS)}"${inside}`;
    case 'missing_parameter':
      return `missing required parameter "${problem.name}"${inside}`;
    case 'not_one_of':
      return `${problem.where} must be one of ${problem.allowed.slice(0, ARGS_ENUM_VALUES).map((value) => JSON.stringify(value).slice(0, ARGS_NAME_CHARS)).join(', ')}`;
    case 'schema':
      return `${problem.where} ${(problem.message ?? 'is invalid').slice(0, ARGS_MESSAGE_CHARS)}`;
  }
}

/** The words of one error a model reads (the message, without the `Error (code):` frame). */
export function renderErrorText(error: ModelError): string {
  return (WORDING[error.kind] as (error: ModelError) => string)(error);
}

/** What an error answer frames: its code, its message and any "did you mean" ids. */
export interface ErrorAnswer {
  code: string;
  message: string;
  suggestions?: readonly string[] | undefined;
}

/**
 * An error as the model reads it: `Error (<code>): <message>`, then the suggestions the message does not already
 * name (the catalog's "did you mean a, b?" is not followed by them again).
 */
export function renderErrorAnswer({ code, message, suggestions }: ErrorAnswer): string {
  const unsaid = suggestions !== undefined && suggestions.length > 0 && suggestions.some((suggestion) => !message.includes(suggestion));
  return `Error (${code}): ${message}${unsaid ? `\nDid you mean: ${suggestions.join(', ')}` : ''}`;
}

/** A native search that could not be answered, as the text of Anthropic's `tool_result` block: `Error: <why>`. */
export function renderNativeSearchError(why: string): string {
  return `Error: ${why}`;
}

/** A call the policy blocked, as the model reads it: who blocked it, why, and not to retry. */
export function renderBlockedAnswer({ by, reason, id }: { by: string; reason: string; id: string }): string {
  return `Blocked (${by}): ${reason}. The call to ${id} did not run; do not retry it.`;
}
