// The one call pipeline every real tool call goes through, whatever route reached it:
// authorize (policy, owner gate, hooks, approvals) → validate the final args → run → render.
import { parseToolId } from '@tool-search/catalog';
import { renderBlockedAnswer, renderContentPartsText, type ModelError, type Mode } from '@tool-search/modes';
import { isPolicyError, type ApprovalProvider, type BeforeToolCallHook, type Policy, type PolicyContext, type PolicyTimeouts } from '@tool-search/policy';
import type { Logger } from 'pino';
import type { ArgsValidator } from '../host/index.js';
import { renderToolResult } from './render-tool-result.js';
import type { CallRoute } from '../telemetry.js';
import type { McpCallFailureCode, McpLogEntry } from '../mcp-client/index.js';
import type { OkOutcome, ToolCallErrorCode, ToolCallOutcome } from '../tool-call-outcome.js';
import type { ToolProgress } from '../tool-search-session.js';
import type { AllowedTool, AllowedTools } from './allowed-tools.js';
import { combineSignals, raceAbort } from '../shared/index.js';
import { errorOutcome, type OutcomeStart } from './error-outcome.js';
import type { HostCore, HostRoute } from '../host/index.js';
import { finalCallRecord } from './session-counters-sink.js';
import type { SessionEmit } from './session-event.js';
import { traceToolCall, type OpenTelemetryOptions } from '../otel/gateway-spans.js';

/** How a call reached the pipeline, for the record and the outcome. */
export interface CallMeta {
  via: CallRoute;
  toolCallId: string;
  /** The name the model called (`tool_call`, `tool_search_code`, or a declared name). */
  name: string;
  signal?: AbortSignal | undefined;
  /** What `tool_call` repaired in the arguments, when it did. */
  repair?: string | undefined;
  /** Receives progress the tool reports (MCP `notifications/progress`). */
  onProgress?: ((progress: ToolProgress) => void) | undefined;
  /** False: an MCP call's progress does not keep it alive past its timeout (see `ExecuteOptions`). */
  progressExtendsTimeout?: boolean | undefined;
  /** Told of each upstream MCP server call this call makes (see `ExecuteOptions.onUpstreamCall`). */
  onUpstreamCall?: ((call: { server: string; toolId: string }) => (end: { abandoned: boolean }) => void) | undefined;
}

export interface CallPipeline {
  call(id: string, args: Record<string, unknown>, meta: CallMeta): Promise<ToolCallOutcome>;
  /** The `unknown_tool` outcome for an id or name, with the view's suggestions. */
  unknown(start: OutcomeStart, idOrName: string): ToolCallOutcome & { status: 'error' };
}

export interface CallPipelineOptions {
  host: HostCore;
  tools: AllowedTools;
  policy: Policy;
  context: PolicyContext;
  hooks?: readonly BeforeToolCallHook[] | undefined;
  approvals?: ApprovalProvider | undefined;
  authorizeTimeoutMs?: number | PolicyTimeouts | undefined;
  callTimeoutMs: number;
  validator: ArgsValidator;
  /** Aborted when the session closes. */
  sessionSignal: AbortSignal;
  emit: SessionEmit;
  log: Logger;
  /** The session's mode: where the model finds tools (the unknown-tool message names it). */
  mode: Mode;
  /** Receives the log lines an MCP server sends while one of this session's calls to it is in flight. */
  onServerLog?: ((entry: McpLogEntry) => void) | undefined;
  /** What the `execute_tool` spans record beyond their default attributes. */
  openTelemetry: OpenTelemetryOptions;
}

/** Why a tool went away: its host's reason when it has one, else that it is no longer available. */
function gone(reason: ModelError | undefined, id: string): ModelError {
  return reason ?? { kind: 'tool_gone', id };
}

/** Creates the pipeline of one session. */
export function createCallPipeline(options: CallPipelineOptions): CallPipeline {
  const { tools, emit, log } = options;

  const unknown = (start: OutcomeStart, idOrName: string) => {
    const described = tools.view.describe(idOrName);
    const suggestions = described.found ? [] : described.suggestions;
    return errorOutcome(start, 'unknown_tool', { kind: 'unknown_tool', idOrName, mode: options.mode }, { suggestions });
  };

  const finish = (id: string, tool: AllowedTool | undefined, meta: CallMeta, outcome: ToolCallOutcome, decision: string): ToolCallOutcome => {
    const source = tool?.ref.source ?? parseToolId(id)?.source ?? 'openclaw';
    emit({ kind: 'call', record: finalCallRecord(outcome, { toolId: id, source, via: meta.via }), outcome, decision, repair: meta.repair });
    log.info({ toolId: id, via: meta.via, status: outcome.status, durationMs: outcome.durationMs }, 'tool call finished');
    return outcome;
  };

  /** One final call in its `execute_tool` span. */
  function call(id: string, rawArgs: Record<string, unknown>, meta: CallMeta): Promise<ToolCallOutcome> {
    const source = tools.get(id)?.ref.source ?? parseToolId(id)?.source ?? 'openclaw';
    emit({ kind: 'call.start', toolId: id });
    return traceToolCall({ toolId: id, toolCallId: meta.toolCallId, source, via: meta.via, args: rawArgs }, options.openTelemetry, () => runCall(id, rawArgs, meta));
  }

  async function runCall(id: string, rawArgs: Record<string, unknown>, meta: CallMeta): Promise<ToolCallOutcome> {
    const start: OutcomeStart = { kind: 'call', toolCallId: meta.toolCallId, name: meta.name, startedAt: Date.now() };
    const tool = tools.get(id);
    if (tool === undefined) {
      const gone = tools.unavailable(id);
      return finish(id, undefined, meta, gone === undefined ? unknown(start, id) : errorOutcome(start, 'unavailable', gone), 'not-run');
    }
    let decision: Awaited<ReturnType<Policy['authorizeCall']>>;
    try {
      decision = await options.policy.authorizeCall({
        tool: tool.policyTool,
        args: rawArgs,
        context: options.context,
        hooks: options.hooks,
        approvals: options.approvals,
        timeoutMs: options.authorizeTimeoutMs,
        signal: meta.signal,
      });
    } catch (error) {
      // Arguments the policy cannot take as plain JSON (nested past its depth limit, non-finite numbers) are the
      // model's bad arguments, answered like any other: the policy owns the rule, the message is its own.
      if (!isPolicyError(error) || error.code !== 'invalid_argument' || error.path !== 'args') throw error;
      return finish(id, tool, meta, errorOutcome(start, 'invalid_args', { kind: 'invalid_tool_arguments', id, problem: error.message.replace(/^invalid args: /, '') }, { tool: tool.ref }), 'not-run');
    }
    if (decision.status === 'blocked') {
      const outcome: ToolCallOutcome = {
        status: 'blocked',
        kind: 'call',
        toolCallId: meta.toolCallId,
        name: meta.name,
        tool: tool.ref,
        by: decision.by,
        reason: decision.reason,
        content: renderBlockedAnswer({ by: decision.by, reason: decision.reason, id }),
        durationMs: Date.now() - start.startedAt,
      };
      if (decision.hookId !== undefined) outcome.hookId = decision.hookId;
      return finish(id, tool, meta, outcome, `blocked:${decision.by}`);
    }
    const invalid = validate(options, tool, decision.args);
    if (invalid !== undefined) return finish(id, tool, meta, errorOutcome(start, 'invalid_args', invalid.error, { tool: tool.ref, suggestions: invalid.suggestions }), 'allowed');
    // A server may have gone away while hooks or approvals ran.
    if (tools.get(id) === undefined) {
      return finish(id, tool, meta, errorOutcome(start, 'unavailable', gone(tools.unavailable(id), id), { tool: tool.ref }), 'allowed');
    }
    return finish(id, tool, meta, await run(options, tool, decision.args, meta, start), 'allowed');
  }

  return { call, unknown };
}

/** The args problem of a call, or undefined when they are fine (every source: the validator is bounded for hostile schemas). */
function validate(options: CallPipelineOptions, tool: AllowedTool, args: Record<string, unknown>): { error: ModelError; suggestions: string[] } | undefined {
  if (tool.inputSchema === undefined) return undefined;
  const described = options.tools.view.describe(tool.ref.id);
  const signature = described.found ? described.tool.input : undefined;
  const validation = options.validator.validate({ toolId: tool.ref.id, schema: tool.inputSchema, args });
  if (validation.ok) return undefined;
  const { problems, suggestions } = validation;
  return { error: { kind: 'tool_arguments_refused', id: tool.ref.id, problems, suggestions, signature }, suggestions: Object.values(suggestions).flat() };
}

/** Why an MCP call gave no result, as the outcome's code (one table for every failure the connection reports). */
const MCP_FAILURE_CODES: Readonly<Record<McpCallFailureCode, ToolCallErrorCode>> = {
  unavailable: 'unavailable',
  unauthorized: 'unauthorized',
  timeout: 'timeout',
  cancelled: 'cancelled',
  invalid_output: 'invalid_output',
  result_too_large: 'result_too_large',
  failed: 'tool_failed',
};

async function run(options: CallPipelineOptions, tool: AllowedTool, args: Record<string, unknown>, meta: CallMeta, start: OutcomeStart): Promise<ToolCallOutcome> {
  const route = tool.route;
  if (route === undefined) {
    const content = `Client tool ${tool.ref.name} is executed by the caller.`;
    return { status: 'client', kind: 'call', toolCallId: meta.toolCallId, name: meta.name, tool: tool.ref, args, content, durationMs: Date.now() - start.startedAt };
  }
  // An MCP call's connection owns its timeouts (an idle timeout that progress resets, and a total ceiling), so a
  // long call that reports progress is not cut at `callTimeoutMs`; every other call gets `callTimeoutMs` here.
  const timeout = route.kind === 'mcp' ? undefined : AbortSignal.timeout(options.callTimeoutMs);
  const combined = combineSignals([timeout, options.sessionSignal, meta.signal]);
  try {
    switch (route.kind) {
      case 'mcp':
        return await runMcp(options, tool, route, args, { meta, start, signal: combined.signal });
      case 'mcp-resource':
        return await readResource(options, tool, route, args, { meta, start, signal: combined.signal });
      case 'local':
        return await runLocal(options, tool, route, args, { meta, start, signal: combined.signal, timedOut: () => timeout?.aborted === true });
    }
  } finally {
    combined.dispose();
  }
}

/** What every runner gets: the call, when it started, and the signal that aborts it. */
interface RunContext {
  meta: CallMeta;
  start: OutcomeStart;
  signal: AbortSignal;
}

/** Runs `request` to upstream `server` told to the caller as a call talking to it, from its start to its end. */
async function talking<T extends { ok: boolean }>(meta: CallMeta, server: string, toolId: string, request: () => Promise<T>): Promise<T> {
  const ended = meta.onUpstreamCall?.({ server, toolId });
  let abandoned = true;
  try {
    const result = await request();
    // A call the gateway stopped waiting for (cancelled, timed out) may still run on the server, and ask.
    const code = result.ok ? undefined : (result as { code?: string }).code;
    abandoned = code === 'timeout' || code === 'cancelled';
    return result;
  } finally {
    ended?.({ abandoned });
  }
}

/** An MCP `tools/call`; aborting the signal sends `notifications/cancelled`. */
async function runMcp(options: CallPipelineOptions, tool: AllowedTool, route: Extract<HostRoute, { kind: 'mcp' }>, args: Record<string, unknown>, run: RunContext): Promise<ToolCallOutcome> {
  const { meta, start } = run;
  const called = await talking(meta, route.server, tool.ref.id, () =>
    options.host.callMcp(route.server, route.toolName, args, {
      signal: run.signal,
      timeoutMs: options.callTimeoutMs,
      onProgress: meta.onProgress,
      ...(meta.progressExtendsTimeout === false ? { progressExtendsTimeout: false } : {}),
      onServerLog: options.onServerLog,
    }),
  );
  if (!called.ok) return errorOutcome(start, MCP_FAILURE_CODES[called.code], { kind: 'relayed', message: called.message }, { tool: tool.ref });
  const text = renderContentPartsText(called.parts, called.structured);
  if (called.isError) {
    const rendered = renderToolResult(text, { untrusted: true, toolId: tool.ref.id });
    return errorOutcome(start, 'tool_failed', { kind: 'upstream_error', server: route.server, toolName: route.toolName, content: rendered.content }, { tool: tool.ref });
  }
  return withParts(okOutcome(tool, meta, start, called.result, renderToolResult(text, { untrusted: !tool.trusted, toolId: tool.ref.id })), called.parts, called.structured);
}

/** The synthesized `read_resource` tool: the resource's contents as parts (text inline, binary as attachments). */
async function readResource(options: CallPipelineOptions, tool: AllowedTool, route: Extract<HostRoute, { kind: 'mcp-resource' }>, args: Record<string, unknown>, run: RunContext): Promise<ToolCallOutcome> {
  const read = await talking(run.meta, route.server, tool.ref.id, () => options.host.readResource(route.server, String(args['uri']), { signal: run.signal, timeoutMs: options.callTimeoutMs }));
  if (!read.ok) return errorOutcome(run.start, read.code === 'unsupported' ? 'tool_failed' : MCP_FAILURE_CODES[read.code], { kind: 'relayed', message: read.message }, { tool: tool.ref });
  const text = renderContentPartsText(read.parts, undefined);
  return withParts(okOutcome(tool, run.meta, run.start, text, renderToolResult(text, { untrusted: !tool.trusted, toolId: tool.ref.id })), read.parts, undefined);
}

/** A tool of this process; a tool that ignores its signal still cannot hang the call. */
async function runLocal(
  options: CallPipelineOptions,
  tool: AllowedTool,
  route: Extract<HostRoute, { kind: 'local' }>,
  args: Record<string, unknown>,
  run: RunContext & { timedOut(): boolean },
): Promise<ToolCallOutcome> {
  const { meta, start } = run;
  try {
    const context = { toolId: tool.ref.id, toolCallId: meta.toolCallId, signal: run.signal, logger: options.log.child({ toolId: tool.ref.id }) };
    const result = await raceAbort(Promise.resolve().then(() => route.tool.execute(args, context)), run.signal);
    return okOutcome(tool, meta, start, result, renderToolResult(result, { untrusted: !tool.trusted, toolId: tool.ref.id }));
  } catch (error) {
    if (run.timedOut()) return errorOutcome(start, 'timeout', { kind: 'tool_timeout', id: tool.ref.id, timeoutMs: options.callTimeoutMs }, { tool: tool.ref });
    if (meta.signal?.aborted === true) return errorOutcome(start, 'cancelled', { kind: 'tool_cancelled', id: tool.ref.id }, { tool: tool.ref });
    const message = error instanceof Error ? error.message : String(error);
    return errorOutcome(start, 'tool_failed', { kind: 'tool_failed', id: tool.ref.id, message }, { tool: tool.ref });
  }
}

/** An ok outcome with the content parts and structured content its tool gave. */
function withParts(outcome: OkOutcome, parts: OkOutcome['parts'] & object, structured: Record<string, unknown> | undefined): OkOutcome {
  if (parts.length > 0) outcome.parts = parts;
  if (structured !== undefined) outcome.structured = structured;
  return outcome;
}

function okOutcome(tool: AllowedTool, meta: CallMeta, start: OutcomeStart, result: unknown, rendered: { content: string; truncated: boolean }): OkOutcome {
  return {
    status: 'ok',
    kind: 'call',
    toolCallId: meta.toolCallId,
    name: meta.name,
    tool: tool.ref,
    result,
    untrusted: !tool.trusted,
    truncated: rendered.truncated,
    content: rendered.content,
    durationMs: Date.now() - start.startedAt,
  };
}
