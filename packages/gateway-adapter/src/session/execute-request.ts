// Routes one model tool call of a session: a control tool of its mode, a declared name, a hydrated name, or
// unknown; progress goes to the caller and (bounded) to the session log.
import { isControlToolName, TOOL_SEARCH } from '@tool-search/modes';
import { pickDefined as pick } from '../pick-defined.js';
import type { CallRoute } from '../telemetry.js';
import type { ToolCallOutcome } from '../tool-call-outcome.js';
import type { ExecuteOptions, ToolCallRequest, ToolProgress } from '../tool-search-session.js';
import { controlKind } from './control-routes.js';
import { errorOutcome } from './error-outcome.js';
import { parseCallArgs } from './parse-call-args.js';
import type { SessionParts } from './session-parts.js';

/** Routes one model tool call: a control tool of the mode, a declared name, a hydrated name, or unknown. */
export async function executeRequest(parts: SessionParts, request: ToolCallRequest, options: ExecuteOptions): Promise<ToolCallOutcome> {
  const { name, toolCallId } = request;
  const { pipeline, tools, surface } = parts;
  const start = { kind: controlKind(name), toolCallId, name, startedAt: Date.now() };
  const fail = (outcome: ReturnType<typeof errorOutcome>) => {
    parts.emit({ kind: 'error' });
    return outcome;
  };
  const args = parseCallArgs(request.args);
  if (args === undefined) return fail(errorOutcome(start, 'invalid_request', { kind: 'arguments_not_object', tool: name }));
  const call = { ...pick(options, ['signal', 'progressExtendsTimeout', 'onUpstreamCall']), ...(options.onProgress === undefined ? {} : { onProgress: progressReporter(parts, toolCallId, options.onProgress) }) };
  const route = parts.routes.get(name);
  if (route !== undefined) {
    // With an embedder, the queries are embedded first, so the route's (synchronous) search of them is fused.
    if (name === TOOL_SEARCH && parts.embedQueries !== undefined) await parts.embedQueries(searchQueriesOf(args));
    return route.handle(args, start, call);
  }
  if (isControlToolName(name)) return fail(errorOutcome(start, 'wrong_mode', { kind: 'wrong_mode', tool: name, mode: parts.decision.mode }));
  const signal = call;
  const declared = surface.declaredId(name);
  if (declared !== undefined) return pipeline.call(declared, args, { via: declaredRoute(parts, declared), toolCallId, name, ...signal });
  // Directory mode: an exact hidden name the model read in the directory is hydrated from the allowed catalog.
  const hydrated = parts.decision.mode === 'directory' ? surface.current().hydratable.get(name) : undefined;
  if (hydrated !== undefined && tools.get(hydrated) !== undefined) {
    parts.emit({ kind: 'hydration', toolCallId, name, toolId: hydrated });
    return pipeline.call(hydrated, args, { via: 'hydrated', toolCallId, name, ...signal });
  }
  const unknown = pipeline.unknown(start, name);
  parts.emit({ kind: 'call.not_run', toolCallId, via: 'direct', target: name, outcome: unknown });
  return unknown;
}

/** The query texts of `tool_search` arguments (`query`, or `queries` of strings or `{ query }`); the route checks them. */
function searchQueriesOf(args: Record<string, unknown>): string[] {
  if (typeof args['query'] === 'string') return [args['query']];
  if (!Array.isArray(args['queries'])) return [];
  return args['queries']
    .map((entry: unknown) => (typeof entry === 'string' ? entry : typeof entry === 'object' && entry !== null ? (entry as { query?: unknown }).query : undefined))
    .filter((query): query is string => typeof query === 'string');
}

/** Most progress events one call writes to the session log (the caller's receiver gets every one). */
const MAX_PROGRESS_EVENTS = 50;

/** Hands progress to the caller's receiver and writes it to the session log (bounded per call). */
function progressReporter(parts: SessionParts, toolCallId: string, receiver: (progress: ToolProgress) => void): (progress: ToolProgress) => void {
  let written = 0;
  return (progress) => {
    if (written < MAX_PROGRESS_EVENTS) {
      written += 1;
      parts.emit({ kind: 'progress', fields: { toolCallId, progress: progress.progress, total: progress.total } });
    }
    try {
      receiver(progress);
    } catch (error) {
      // A throwing receiver must not fail the call it watches.
      parts.emit({ kind: 'progress', fields: { toolCallId, receiverFailed: error instanceof Error ? error.message.slice(0, 200) : 'non-error thrown' } });
    }
  };
}

/** How a call to a declared name came: a client tool, a tool native mode deferred (loaded by a search), or direct. */
function declaredRoute(parts: SessionParts, id: string): CallRoute {
  if (parts.tools.get(id)?.kind === 'client') return 'client';
  return parts.decision.mode === 'native' && !parts.tools.pinnedInputs().some((pin) => `${pin.source}:${pin.owner}:${pin.name}` === id) ? 'native' : 'direct';
}
