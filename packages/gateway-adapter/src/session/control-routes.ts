// The control tools of a session's mode, as a routing table keyed by the names modes owns, each parsing its
// arguments with the schema modes owns.
import {
  renderNoServerMatchNote,
  renderSearchAnswer,
  renderServerSearchAnswer,
  TOOL_CALL,
  TOOL_DESCRIBE,
  TOOL_SEARCH,
  TOOL_SEARCH_CODE,
  toolCallArgsSchema,
  toolDescribeArgsSchema,
  toolSearchArgsSchema,
  toolSearchCodeArgsSchema,
  type Mode,
  type ModelError,
} from '@tool-search/modes';
import type { Runner } from '@tool-search/sandbox-runner';
import { renderToolResult } from './render-tool-result.js';
import { repairFlattenedArgs } from './repair-flattened-args.js';
import type { OutcomeKind, ToolCallOutcome } from '../tool-call-outcome.js';
import type { AllowedTools } from './allowed-tools.js';
import type { CallMeta, CallPipeline } from './call-pipeline.js';
import type { CatalogReads, SearchRequest } from './catalog-reads.js';
import { errorOutcome, type OutcomeStart } from './error-outcome.js';
import { formatZodError } from '../shared/index.js';
import { pickDefined as pick } from '../pick-defined.js';
import { acquireRunSlots, type RunSlots } from '../shared/index.js';
import { runCodeBody } from './run-code-body.js';
import type { SessionEmit } from './session-event.js';

/** What the caller of `execute` gave for this call: its cancel signal and progress receiver. */
export type CallOptions = Pick<CallMeta, 'signal' | 'onProgress' | 'progressExtendsTimeout' | 'onUpstreamCall'>;

/** One control tool: its outcome kind and its handler. */
export interface ControlRoute {
  kind: OutcomeKind;
  handle(args: Record<string, unknown>, start: OutcomeStart, call: CallOptions): Promise<ToolCallOutcome>;
}

export interface ControlRouteContext {
  tools: AllowedTools;
  reads: CatalogReads;
  pipeline: CallPipeline;
  emit: SessionEmit;
  runner: Runner | undefined;
  /** Code runs take a slot of each (the session's, then the host's) before they start. */
  runSlots: readonly RunSlots[];
  codeTimeoutMs: number;
  sessionSignal: AbortSignal;
  /** Native mode with chat loading: answers `tool_search` by loading what it finds (see `answerChatToolSearch`). */
  chatSearch?: ((args: Record<string, unknown>, start: OutcomeStart) => ToolCallOutcome) | undefined;
}

const CONTROL_KINDS: Readonly<Record<string, OutcomeKind>> = { [TOOL_SEARCH]: 'search', [TOOL_DESCRIBE]: 'describe', [TOOL_SEARCH_CODE]: 'code' };

/** The outcome kind of a call to `name`: its control tool's kind, else `call`. */
export function controlKind(name: string): OutcomeKind {
  return CONTROL_KINDS[name] ?? 'call';
}

/** The routes of `mode`: code mode has `tool_search_code`; tools, directory and native the three search tools; direct none. */
export function createControlRoutes(mode: Mode, context: ControlRouteContext): ReadonlyMap<string, ControlRoute> {
  const routes = new Map<string, ControlRoute>();
  if (mode === 'code') routes.set(TOOL_SEARCH_CODE, { kind: 'code', handle: (args, start, call) => runCode(context, args, start, call) });
  // Native mode declares our tool_search for Anthropic, and falls back to tools mode on OpenAI Chat.
  if (mode === 'tools' || mode === 'directory' || mode === 'native') {
    const { chatSearch } = context;
    routes.set(TOOL_SEARCH, { kind: 'search', handle: async (args, start) => (mode === 'native' && chatSearch !== undefined ? chatSearch(args, start) : search(context, args, start)) });
    routes.set(TOOL_DESCRIBE, { kind: 'describe', handle: async (args, start) => describe(context, args, start) });
    routes.set(TOOL_CALL, { kind: 'call', handle: (args, start, call) => callById(context, args, start, call) });
  }
  return routes;
}

/** A message the catalog (or another part) wrote, relayed to the model as it is. */
function relayed(message: string): ModelError {
  return { kind: 'relayed', message };
}

/** A thrown error's message, relayed. */
function thrown(error: unknown): ModelError {
  return relayed(error instanceof Error ? error.message : String(error));
}

/** Counts an error answered without a call (the call pipeline counts its own). */
function answerError(context: ControlRouteContext, outcome: ToolCallOutcome & { status: 'error' }): ToolCallOutcome {
  context.emit({ kind: 'error' });
  return outcome;
}

function search(context: ControlRouteContext, args: Record<string, unknown>, start: OutcomeStart): ToolCallOutcome {
  const parsed = toolSearchArgsSchema.safeParse(args);
  if (!parsed.success) return answerError(context, errorOutcome(start, 'invalid_request', { kind: 'invalid_arguments', tool: TOOL_SEARCH, problem: formatZodError(parsed.error, 'args').message }));
  const { limit } = parsed.data;
  const first = parsed.data.query ?? parsed.data.queries?.map((query) => (typeof query === 'string' ? query : query.query))[0];
  // `{ query?, servers_offset }`: a page of the map, ranked for the query as the answer that offered it was.
  if (parsed.data.servers_offset !== undefined) return serverMap(context, first, parsed.data.servers_offset, start);
  if (parsed.data.query === undefined && parsed.data.queries === undefined) {
    return parsed.data.server === undefined ? serverMap(context, undefined, 0, start) : browse(context, parsed.data.server, parsed.data.offset, limit, start);
  }
  let server: string | undefined;
  let serverToolCount = 0;
  if (parsed.data.server !== undefined) {
    // A search within one server: the server is named as browse names it (and refused or unknown alike).
    const found = context.reads.browse(parsed.data.server, { limit: 1 }, start.toolCallId, TOOL_SEARCH);
    if (!found.found) return answerError(context, errorOutcome(start, 'invalid_request', relayed(found.message), { suggestions: found.suggestions }));
    server = `${found.source}:${found.owner}`;
    serverToolCount = found.toolCount;
  }
  const withLimit = (query: string, own?: number): SearchRequest => {
    const chosen = own ?? limit;
    return { query, limit: chosen, server };
  };
  const single = parsed.data.query !== undefined;
  const queries = single
    ? [withLimit(parsed.data.query as string)]
    : (parsed.data.queries ?? []).map((query) => (typeof query === 'string' ? withLimit(query) : withLimit(query.query, query.limit)));
  let answers;
  try {
    answers = context.reads.searchWithEvidence(queries, single, start.toolCallId, TOOL_SEARCH);
  } catch (error) {
    return answerError(context, errorOutcome(start, 'invalid_request', thrown(error)));
  }
  if (server !== undefined) {
    // Within one server the model already chose by meaning: its hits as they are, with how many of its tools
    // matched, or, when none match, its tools.
    const first = answers[0];
    if (first !== undefined && first.hits.length > 0) {
      return ok(start, renderServerSearchAnswer({ server, matched: first.matched ?? first.hits.length, toolCount: serverToolCount, hits: first.hits }));
    }
    const listed = context.reads.browse(server, limit === undefined ? {} : { limit }, start.toolCallId, TOOL_SEARCH);
    return ok(start, { note: renderNoServerMatchNote(server), ...listed });
  }
  // The words are modes': strong evidence keeps the plain shape; when every search is weak, the note, the first
  // guesses and a page of the map ranked for the first query (the catalog pages it within the bytes left).
  const searches = queries.map((query, index) => ({ query: query.query, answer: answers[index] ?? { hits: [], evidence: 'weak' as const } }));
  return ok(start, renderSearchAnswer(searches, { single, map: (request) => context.reads.servers(queries[0]?.query, start.toolCallId, TOOL_SEARCH, request) }));
}

/** A search or browse answer: the value as the model reads it (JSON). */
function ok(start: OutcomeStart, value: unknown): ToolCallOutcome {
  return { status: 'ok', kind: 'search', toolCallId: start.toolCallId, name: start.name, result: value, untrusted: false, truncated: false, content: JSON.stringify(value), durationMs: Date.now() - start.startedAt };
}

/** `tool_search({})` and `{ query?, servers_offset }`: one page of the server map. */
function serverMap(context: ControlRouteContext, query: string | undefined, offset: number, start: OutcomeStart): ToolCallOutcome {
  try {
    return ok(start, context.reads.servers(query, start.toolCallId, TOOL_SEARCH, { offset }));
  } catch (error) {
    return answerError(context, errorOutcome(start, 'invalid_request', thrown(error)));
  }
}

/** `tool_search({ server })`: one server's tools, a page at a time. */
function browse(context: ControlRouteContext, server: string, offset: number | undefined, limit: number | undefined, start: OutcomeStart): ToolCallOutcome {
  let browsed;
  try {
    browsed = context.reads.browse(server, { offset, limit }, start.toolCallId, TOOL_SEARCH);
  } catch (error) {
    return answerError(context, errorOutcome(start, 'invalid_request', thrown(error)));
  }
  if (!browsed.found) return answerError(context, errorOutcome(start, 'invalid_request', relayed(browsed.message), { suggestions: browsed.suggestions }));
  return ok(start, browsed);
}

function describe(context: ControlRouteContext, args: Record<string, unknown>, start: OutcomeStart): ToolCallOutcome {
  const parsed = toolDescribeArgsSchema.safeParse(args);
  if (!parsed.success) return answerError(context, errorOutcome(start, 'invalid_request', { kind: 'invalid_arguments', tool: TOOL_DESCRIBE, problem: formatZodError(parsed.error, 'args').message }));
  const described = context.reads.describe(parsed.data.id, start.toolCallId, TOOL_DESCRIBE);
  if (!described.found) {
    return answerError(context, errorOutcome(start, described.reason === 'ambiguous' ? 'invalid_request' : 'unknown_tool', relayed(described.message), { suggestions: described.suggestions }));
  }
  const { tool } = described;
  // A schema from an untrusted source carries its text too: it is marked like an untrusted result.
  const untrusted = context.tools.view.get(tool.id)?.trusted !== true;
  // A described tool was asked for by id or name: a search score means nothing here.
  const { score: _score, ...shown } = tool;
  const rendered = renderToolResult(shown, { untrusted, toolId: tool.id });
  return {
    status: 'ok',
    kind: 'describe',
    toolCallId: start.toolCallId,
    name: start.name,
    tool: { id: tool.id, name: tool.name, source: tool.source, owner: tool.owner },
    result: tool,
    untrusted,
    truncated: rendered.truncated,
    content: rendered.content,
    durationMs: Date.now() - start.startedAt,
  };
}

async function callById(context: ControlRouteContext, args: Record<string, unknown>, start: OutcomeStart, call: CallOptions): Promise<ToolCallOutcome> {
  const target = typeof args['id'] === 'string' ? args['id'].trim() : '';
  if (target === '') return answerError(context, errorOutcome(start, 'invalid_request', { kind: 'call_needs_id' }));
  const resolved = context.tools.resolve(target);
  if ('miss' in resolved) {
    const outcome =
      resolved.miss.reason === 'ambiguous'
        ? errorOutcome(start, 'invalid_request', relayed(resolved.miss.message), { suggestions: resolved.miss.suggestions })
        : context.pipeline.unknown(start, target);
    context.emit({ kind: 'call.not_run', toolCallId: start.toolCallId, via: TOOL_CALL, target, outcome });
    return outcome;
  }
  const strict = toolCallArgsSchema.safeParse(args);
  const properties = Object.keys((context.tools.get(resolved.id)?.inputSchema?.['properties'] as Record<string, unknown> | undefined) ?? {});
  const repaired = strict.success ? ({ ok: true, args: strict.data.args } as const) : repairFlattenedArgs(args, properties);
  if (!repaired.ok) return answerError(context, errorOutcome(start, 'invalid_request', repaired.error));
  const repair = 'repair' in repaired ? repaired.repair : undefined;
  return context.pipeline.call(resolved.id, repaired.args, {
    via: TOOL_CALL,
    toolCallId: start.toolCallId,
    name: start.name,
    ...pick(call, ['signal', 'onProgress', 'progressExtendsTimeout', 'onUpstreamCall']),
    repair,
  });
}

async function runCode(context: ControlRouteContext, args: Record<string, unknown>, start: OutcomeStart, call: CallOptions): Promise<ToolCallOutcome> {
  const parsed = toolSearchCodeArgsSchema.safeParse(args);
  if (!parsed.success) return answerError(context, errorOutcome(start, 'invalid_request', { kind: 'invalid_arguments', tool: TOOL_SEARCH_CODE, problem: formatZodError(parsed.error, 'args').message }));
  if (context.runner === undefined) return answerError(context, errorOutcome(start, 'unavailable', { kind: 'no_sandbox' }));
  // A run waits for a slot at most as long as it may run; then (or with the queue full) it is busy.
  const slot = await acquireRunSlots(context.runSlots, { waitMs: context.codeTimeoutMs, signal: call.signal });
  if (!slot.ok) return answerError(context, errorOutcome(start, slot.reason, slot.error));
  try {
    return await runCodeBody(
      { runner: context.runner, tools: context.tools, reads: context.reads, pipeline: context.pipeline, emit: context.emit, timeoutMs: context.codeTimeoutMs, sessionSignal: context.sessionSignal },
      parsed.data.code,
      start,
      call,
    );
  } finally {
    slot.release();
  }
}
