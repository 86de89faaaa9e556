// The gateway's agent loop: the official client of the configured wire format → provider, tool calls → the
// tool-search session, results back, until the model answers in text (or hands a client tool call back to the
// caller). In native mode the provider's own tool search requests go to `session.answerNativeSearch`.
import type { AgentLoopOptions, AgentLoopResult } from './agent-loop-options.js';
import { runAnthropicLoop } from './internal/run-anthropic-loop.js';
import { runChatLoop } from './internal/run-chat-loop.js';
import { runResponsesLoop } from './internal/run-responses-loop.js';
import type { GatewayProviderConfig } from './load-gateway-config.js';

export type { AgentLoopOptions, AgentLoopResult, AgentNativeSearch, AgentSession, AgentSurfaceFormat, AgentToolCall } from './agent-loop-options.js';

const LOOPS: Readonly<Record<GatewayProviderConfig['api'], (options: AgentLoopOptions) => Promise<AgentLoopResult>>> = {
  responses: runResponsesLoop,
  chat: runChatLoop,
  anthropic: runAnthropicLoop,
};

/**
 * Runs the agent loop over the configured wire format until the model answers in text, a client tool is
 * called (returned to the caller), or `maxTurns` is reached. Provider errors propagate (the gateway turns
 * them into an HTTP error).
 */
export function runAgentLoop(options: AgentLoopOptions): Promise<AgentLoopResult> {
  return LOOPS[options.provider.api](options);
}
