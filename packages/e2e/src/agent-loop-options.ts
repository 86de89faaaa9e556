// The types of the agent loop (its options, its result, the session part it drives), apart from `runAgentLoop` so
// that the per-format loops in internal/ import them without importing the dispatcher that imports them.
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import type { Logger } from 'pino';
import type { ToolSearchSession } from '@tool-search/gateway-adapter';
import type { GatewayProviderConfig } from './load-gateway-config.js';

/** The provider-facing tool formats the loop asks the session for. */
export type AgentSurfaceFormat = 'openai-chat' | 'openai-responses' | 'anthropic';

/**
 * The part of a gateway-adapter session the loop drives: its own types, so the loop sends what the session
 * renders without a cast and stays a thin consumer of `@tool-search/gateway-adapter`'s public API.
 */
export type AgentSession = Pick<ToolSearchSession, 'surface' | 'execute' | 'answerNativeSearch'>;

/** One tool call the model made and what the session answered. */
export interface AgentToolCall {
  callId: string;
  name: string;
  arguments: string;
  status: string;
  content: string;
}

/** One provider tool search the session answered (native mode). */
export interface AgentNativeSearch {
  callId: string;
  /** The catalog ids the answer loaded into the model's context. */
  loadedIds: string[];
  /** Set when the search request was malformed (answered with nothing loaded). */
  error?: string;
}

/** What one run of the loop produced. */
export interface AgentLoopResult {
  /** The model's final text ('' when the run ended on client tool calls or the turn limit). */
  text: string;
  turns: number;
  toolCalls: AgentToolCall[];
  /** Calls to client tools, handed back to the caller to execute. */
  clientCalls: AgentToolCall[];
  /** The provider's own tool searches, answered by the session (native mode). */
  nativeSearches: AgentNativeSearch[];
  /** True when the loop stopped at `maxTurns` with tool calls still coming. */
  truncated: boolean;
}

/** Options for `runAgentLoop`. */
export interface AgentLoopOptions {
  /** The official client of `provider.api`: `openai` for `responses` and `chat`, `@anthropic-ai/sdk` for `anthropic`. */
  client: OpenAI | Anthropic;
  provider: GatewayProviderConfig;
  session: AgentSession;
  /** The user's message. */
  input: string;
  /** Extra system text from the caller, placed before the session's instructions. */
  instructions?: string;
  maxTurns: number;
  logger: Logger;
}
