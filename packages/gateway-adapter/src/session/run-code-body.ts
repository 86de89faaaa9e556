// The code-run bridge: runs a `tool_search_code` body in the sandbox runner, answering its tools.search,
// tools.describe and tools.call here, through the session's reads and call pipeline (so every call from code
// is gated exactly like a direct one), and turns the run into an outcome.
import { renderCodeRunAnswer, renderCodeSearchAnswer, renderErrorText } from '@tool-search/modes';
import type { Runner } from '@tool-search/sandbox-runner';
import { renderToolResult, stringifyResult } from './render-tool-result.js';
import type { ToolCallErrorCode, ToolCallOutcome } from '../tool-call-outcome.js';
import type { AllowedTools } from './allowed-tools.js';
import type { CallMeta, CallPipeline } from './call-pipeline.js';
import { combineSignals } from '../shared/index.js';
import type { CatalogReads } from './catalog-reads.js';
import { errorOutcome, type OutcomeStart } from './error-outcome.js';
import { parseCallArgs } from './parse-call-args.js';
import type { SessionEmit } from './session-event.js';
import { traceCodeRun } from '../otel/gateway-spans.js';

export interface CodeRunContext {
  runner: Runner;
  tools: AllowedTools;
  reads: CatalogReads;
  pipeline: CallPipeline;
  emit: SessionEmit;
  timeoutMs: number;
  sessionSignal: AbortSignal;
}

/** What code gets back from `tools.call`: a plain value (the realm sees no outcome object). */
type BridgeCallAnswer =
  | { status: 'ok'; result: unknown }
  | { status: 'blocked'; by: string; reason: string }
  | { status: 'error'; code: string; message: string; suggestions?: string[] };

/** Runs one body; `start` is the model call that asked for it. */
export async function runCodeBody(context: CodeRunContext, code: string, start: OutcomeStart, call: Pick<CallMeta, 'signal' | 'onProgress' | 'onUpstreamCall'>): Promise<ToolCallOutcome> {
  const { reads, tools, pipeline } = context;
  context.emit({ kind: 'code.start' });
  const innerCalls: { id: string; status: string; detail?: string }[] = [];
  let sawUntrusted = false;
  let innerIndex = 0;
  /** The run's searches and whether each had weak evidence: a run whose searches were all weak gets the server map. */
  const searches: Array<{ query: string; weak: boolean }> = [];

  const callFromCode = async (id: unknown, callArgs: unknown, signal: AbortSignal | undefined): Promise<BridgeCallAnswer> => {
    const innerId = `${start.toolCallId}#${++innerIndex}`;
    if (typeof id !== 'string') return { status: 'error', code: 'invalid_request', message: renderErrorText({ kind: 'code_argument', call: 'call', argument: 'id' }) };
    const args = parseCallArgs(callArgs);
    if (args === undefined) return { status: 'error', code: 'invalid_request', message: renderErrorText({ kind: 'code_argument', call: 'call', argument: 'args' }) };
    const inner: OutcomeStart = { kind: 'call', toolCallId: innerId, name: start.name, startedAt: Date.now() };
    const resolved = tools.resolve(id);
    let outcome: ToolCallOutcome;
    if ('miss' in resolved) outcome = notRun(context, pipeline.unknown(inner, id), id);
    else if (tools.get(resolved.id)?.kind === 'client') {
      outcome = notRun(context, errorOutcome(inner, 'wrong_mode', { kind: 'client_tool_from_code', id }), id);
    } else {
      // Progress of a call from code reaches the caller of the run, like any other call's.
      const progress = call.onProgress === undefined ? {} : { onProgress: call.onProgress };
      // So are the upstream servers it talks to: the run's caller is talking to them.
      const upstream = call.onUpstreamCall === undefined ? {} : { onUpstreamCall: call.onUpstreamCall };
      outcome = await pipeline.call(resolved.id, args, { via: 'code', toolCallId: innerId, name: start.name, ...(signal ? { signal } : {}), ...progress, ...upstream });
    }
    innerCalls.push({ id: outcome.tool?.id ?? id, status: outcome.status, ...(outcome.status === 'error' ? { detail: outcome.code } : {}) });
    // Anything an untrusted tool said, even in an error, marks what the run returns.
    const untrustedTool = outcome.tool !== undefined && tools.get(outcome.tool.id)?.trusted === false;
    if ((outcome.status === 'ok' && outcome.untrusted) || (outcome.status === 'error' && outcome.code === 'tool_failed' && untrustedTool)) sawUntrusted = true;
    if (outcome.status === 'ok') return { status: 'ok', result: outcome.result };
    if (outcome.status === 'blocked') return { status: 'blocked', by: outcome.by, reason: outcome.reason };
    if (outcome.status === 'error') return { status: 'error', code: outcome.code, message: outcome.message, ...(outcome.suggestions ? { suggestions: outcome.suggestions } : {}) };
    return { status: 'error', code: 'wrong_mode', message: renderErrorText({ kind: 'client_tool_from_code' }) };
  };

  const cancel = combineSignals([context.sessionSignal, call.signal]);
  const run = await traceCodeRun(start.toolCallId, (bind) => context.runner.run({
    code,
    timeoutMs: context.timeoutMs,
    signal: cancel.signal,
    bridge: {
      search: bind(async (query: unknown, searchOptions: unknown) => {
        if (typeof query !== 'string') throw new Error(renderErrorText({ kind: 'code_argument', call: 'search', argument: 'query' }));
        const limit = typeof searchOptions === 'object' && searchOptions !== null ? (searchOptions as { limit?: unknown }).limit : undefined;
        const answer = reads.searchWithEvidence([{ query, ...(typeof limit === 'number' ? { limit } : {}) }], true, start.toolCallId, 'code')[0];
        const weak = answer?.evidence === 'weak';
        searches.push({ query, weak });
        // The words are modes': a weak answer reaches the body with `evidence`, `note` and a page of the map.
        return renderCodeSearchAnswer(answer ?? { hits: [], evidence: 'strong' }, (request) => reads.servers(query, start.toolCallId, 'code', request));
      }),
      describe: bind(async (id: unknown) => {
        if (typeof id !== 'string') throw new Error(renderErrorText({ kind: 'code_argument', call: 'describe', argument: 'id' }));
        const described = reads.describe(id, start.toolCallId, 'code');
        // A full schema carries its source's text: from an untrusted tool it marks the run's output.
        if (described.found && tools.view.get(described.tool.id)?.trusted !== true) sawUntrusted = true;
        return described;
      }),
      call: bind((id: unknown, callArgs: unknown, bridgeContext?: { signal?: AbortSignal }) => callFromCode(id, callArgs, bridgeContext?.signal)),
    },
  }), (result) => ({ ok: result.ok, innerCalls: innerCalls.length }));
  cancel.dispose();
  return finishCodeRun(context, start, run, { innerCalls, searches, sawUntrusted });
}

/** A finished run as the session logs it and the model reads it: an error with the run's calls and logs, or its value. */
function finishCodeRun(
  context: CodeRunContext,
  start: OutcomeStart,
  run: Awaited<ReturnType<Runner['run']>>,
  seen: { innerCalls: Array<{ id: string; status: string; detail?: string }>; searches: Array<{ query: string; weak: boolean }>; sawUntrusted: boolean },
): ToolCallOutcome {
  const { innerCalls, searches, sawUntrusted } = seen;
  context.emit({ kind: 'code.run', fields: {
    toolCallId: start.toolCallId,
    ok: run.ok,
    ...(run.ok ? {} : { error: run.error.code }),
    calls: innerCalls.map((call) => ({ toolId: call.id, status: call.status })),
    stats: run.stats,
  } });
  const summary = { calls: innerCalls, logs: run.logs };
  if (!run.ok) {
    const code: ToolCallErrorCode = run.error.code === 'timeout' ? 'timeout' : run.error.code === 'unavailable' ? 'unavailable' : 'code_failed';
    const outcome = errorOutcome(start, code, { kind: 'code_failed', code: run.error.code, message: run.error.message });
    outcome.content = `${outcome.content}\n${stringifyResult(summary)}`;
    context.emit({ kind: 'error' });
    return outcome;
  }
  const weak = searches.length > 0 && searches.every((entry) => entry.weak);
  const value = renderCodeRunAnswer({ value: run.value, ...summary }, { weak, map: (request) => context.reads.servers(searches[0]?.query, start.toolCallId, 'code', request) });
  const rendered = renderToolResult(value, { untrusted: sawUntrusted, toolId: start.name });
  return { status: 'ok', kind: 'code', toolCallId: start.toolCallId, name: start.name, result: value, untrusted: sawUntrusted, truncated: rendered.truncated, content: rendered.content, durationMs: Date.now() - start.startedAt };
}

/** A call from code answered without running anything: logged and counted like any other miss. */
function notRun(context: CodeRunContext, outcome: ToolCallOutcome & { status: 'error' }, target: string): ToolCallOutcome {
  context.emit({ kind: 'call.not_run', toolCallId: outcome.toolCallId, via: 'code', target, outcome });
  return outcome;
}
