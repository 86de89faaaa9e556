import type { ToolSource } from '@tool-search/catalog';
import type { ContentPart } from '@tool-search/modes';

/** The catalog identity of a tool an outcome is about. */
export interface ToolRef {
  id: string;
  name: string;
  source: ToolSource;
  owner: string;
}

/** What kind of model tool call an outcome answers. */
export type OutcomeKind = 'search' | 'describe' | 'call' | 'code';

/** Why a call produced no result. */
export type ToolCallErrorCode =
  | 'unknown_tool'
  | 'unavailable'
  | 'invalid_args'
  | 'invalid_request'
  | 'wrong_mode'
  | 'tool_failed'
  | 'timeout'
  | 'cancelled'
  | 'unauthorized'
  | 'invalid_output'
  | 'result_too_large'
  | 'busy'
  | 'code_failed';

interface OutcomeBase {
  kind: OutcomeKind;
  /** The provider's tool call id, echoed. */
  toolCallId: string;
  /** The tool name the model called (`tool_call`, `tool_search_code`, or a direct name). */
  name: string;
  /** The text to hand back to the model as the tool result. */
  content: string;
  durationMs: number;
}

/** A successful call, search or describe. `result` is the raw value; `content` is what the model sees. */
export interface OkOutcome extends OutcomeBase {
  status: 'ok';
  /** The tool that ran (absent for searches). */
  tool?: ToolRef;
  result: unknown;
  /** True when the content came from an untrusted source (MCP, client) and was marked as such. */
  untrusted: boolean;
  /** True when the content was capped. */
  truncated: boolean;
  /**
   * The result as MCP content parts (text, image, audio, resource_link, resource), binary data whole, when the
   * tool gave parts. `content` is their text (notes stand for the binary ones); `renderOutcome` puts both in a
   * provider's tool-result shape.
   */
  parts?: ContentPart[];
  /** The tool's `structuredContent`, when it gave one (checked against its output schema when trusted). */
  structured?: Record<string, unknown>;
}

/** A call stopped by policy, the owner gate, a hook or an approval. */
export interface BlockedOutcome extends OutcomeBase {
  status: 'blocked';
  tool: ToolRef;
  by: 'policy' | 'owner-only' | 'approval' | 'hook';
  reason: string;
  hookId?: string;
}

/** A call that could not produce a result: unknown or unavailable tool, invalid args, tool threw, timeout. */
export interface ErrorOutcome extends OutcomeBase {
  status: 'error';
  code: ToolCallErrorCode;
  message: string;
  tool?: ToolRef;
  /** Near ids or parameter names, when there are any. */
  suggestions?: string[];
}

/** A call to a client tool, authorised here and executed by the host: forward `name` and `args`. */
export interface ClientOutcome extends OutcomeBase {
  status: 'client';
  tool: ToolRef;
  /** The final arguments (after hooks and validation). */
  args: Record<string, unknown>;
}

/** What `session.execute` returns: always a value, never a throw for an expected outcome. */
export type ToolCallOutcome = OkOutcome | BlockedOutcome | ErrorOutcome | ClientOutcome;
