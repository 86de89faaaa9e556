// What a server asks its client (elicitation, sampling, roots), answered through the connection's handlers. A
// 2025-era server sends these as requests of its own (the SDK calls `answerServerQuestion` from its handlers); a
// 2026-07-28 server puts them in a call's `input_required` result, which `callWithInputRounds` answers itself, in the
// caller's own async context: whoever answers (the host's relay) can then tell whose call asked.
import { isInputRequiredResult, ProtocolError, ProtocolErrorCode, type CallToolResult, type InputRequest, type InputResponses, type RequestOptions } from '@modelcontextprotocol/client';
import type { McpServerRequestContext } from './connect-mcp-server-options.js';
import type { McpConnectionCore } from './mcp-connection-core.js';

/** Rounds of questions one call may ask before it is failed (a server asking for ever is not served for ever). */
export const MAX_INPUT_ROUNDS = 16;

/** The parts of a connection that answer a server's questions. */
export type QuestionParts = Pick<McpConnectionCore, 'client' | 'config' | 'options' | 'log' | 'roots'>;

/** Answers one question of the server with the connection's handlers (elicitation declined, sampling refused without one). */
export async function answerServerQuestion(core: QuestionParts, question: InputRequest, context: McpServerRequestContext): Promise<unknown> {
  const { options, config, log } = core;
  switch (question.method) {
    case 'elicitation/create':
      if (options.onElicitation) return options.onElicitation(question.params, context);
      log.info({ mode: question.params.mode ?? 'form' }, 'mcp elicitation declined (no handler)');
      return { action: 'decline' };
    case 'sampling/createMessage':
      if (options.onSampling) return options.onSampling(question.params, context);
      throw new ProtocolError(-1, `Sampling is not available: the gateway does not let MCP server "${config.name}" ask its model for completions`);
    case 'roots/list':
      if (options.roots !== undefined) return { roots: core.roots };
      throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `The gateway offers no roots to MCP server "${config.name}"`);
    default:
      throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `MCP server "${config.name}" asked ${String((question as { method?: unknown }).method).slice(0, 60)}, which the gateway does not answer`);
  }
}

/**
 * `tools/call` on a 2026-07-28 connection with its rounds driven here: each `input_required` result's questions are
 * answered (all of a round together, under the server's own keys) and the call retried with the answers and the
 * server's `requestState`, echoed as it came.
 */
export async function callWithInputRounds(core: QuestionParts, params: Record<string, unknown>, requestOptions: RequestOptions): Promise<CallToolResult> {
  let retry = params;
  for (let round = 0; round <= MAX_INPUT_ROUNDS; round++) {
    const result: unknown = await core.client.request({ method: 'tools/call', params: retry as never }, { ...requestOptions, allowInputRequired: true });
    if (!isInputRequiredResult(result)) return result as CallToolResult;
    const signal = requestOptions.signal ?? new AbortController().signal;
    const asked = Object.entries(result.inputRequests ?? {});
    const answers = await Promise.all(asked.map(([key, question]) => answerServerQuestion(core, question, { server: core.config.name, signal, inputKey: key, withinCall: true })));
    const inputResponses = Object.fromEntries(asked.map(([key], index) => [key, answers[index]])) as InputResponses;
    retry = { ...params, inputResponses, ...(result.requestState === undefined ? {} : { requestState: result.requestState }) };
  }
  throw new ProtocolError(ProtocolErrorCode.InternalError, `MCP server "${core.config.name}" asked for input more than ${MAX_INPUT_ROUNDS} times in one call`);
}
