// The public face of one session (`ToolSearchSession`) over its parts, and what rendering a surface records.
import { measureSurface, PROVIDER_MAX_TOOLS, toProviderTools, type Surface, type SurfaceFormat, type SurfaceMeasure } from '@tool-search/modes';
import { GatewayAdapterError } from '../errors.js';
import type { RenderedSurface, ToolSearchSession } from '../tool-search-session.js';
import { answerNativeSearch } from './answer-native-search.js';
import { executeRequest } from './execute-request.js';
import type { SessionParts } from './session-parts.js';

/** The public session over its parts. */
export function sessionApi(parts: SessionParts, onClose: () => Promise<void>): ToolSearchSession {
  let closed = false;
  return {
    sessionId: parts.sessionId,
    decision: parts.decision,
    surface<F extends SurfaceFormat>(format: F): RenderedSurface<F> {
      const current = parts.surface.current(format);
      recordSurface(parts, current, format, measureSurface(current, format));
      const fallback = current.fallbackReason === undefined ? {} : { requestedMode: current.requestedMode ?? parts.decision.mode, fallbackReason: current.fallbackReason };
      return { mode: current.mode, tools: toProviderTools(current.tools, format), instructions: current.instructions, ...fallback };
    },
    modelSurface() {
      const current = parts.surface.current();
      const toolBytes = Buffer.byteLength(JSON.stringify(current.tools));
      const instructionBytes = Buffer.byteLength(current.instructions);
      recordSurface(parts, current, 'model', { toolBytes, instructionBytes, totalBytes: toolBytes + instructionBytes, upFrontToolBytes: toolBytes, deferredTools: 0 });
      return { mode: current.mode, tools: current.tools.map((tool) => ({ ...tool })), instructions: current.instructions };
    },
    async execute(request, executeOptions = {}) {
      if (closed) throw new GatewayAdapterError('session_closed', `Tool call ${request.toolCallId} arrived after the session was closed`);
      // No call, search or describe misses a server that was still starting (bounded by the startup timeout).
      await parts.started;
      return executeRequest(parts, request, executeOptions);
    },
    whenStarted: () => parts.started,
    tool: (id) => parts.tools.view.get(id),
    answerNativeSearch: (request, format) => {
      if (closed) throw new GatewayAdapterError('session_closed', 'A native tool search arrived after the session was closed');
      return answerNativeSearch(parts, request, format);
    },
    searchLimits: { ...parts.searchLimits },
    search(query, searchOptions = {}) {
      if (closed) throw new GatewayAdapterError('session_closed', 'A search arrived after the session was closed');
      const { limit, toolCallId } = searchOptions;
      // A framework's own tool search (AI SDK, Agents SDK) ranking through this session: logged as `session`.
      return parts.reads.search([{ query, limit }], true, toolCallId, 'session')[0] ?? [];
    },
    explain(query, explainOptions = {}) {
      if (closed) throw new GatewayAdapterError('session_closed', 'An explain arrived after the session was closed');
      return parts.reads.explain(query, explainOptions.limit);
    },
    telemetry: () => parts.counters.telemetry(),
    async close() {
      if (closed) return;
      closed = true;
      parts.abort.abort();
      parts.emit({ kind: 'session.end', summary: parts.counters.telemetry() });
      await onClose();
    },
  };
}

/** Records what was declared up front (schemas of catalog, pinned and client tools; deferred ones do not count). */
function recordSurface(parts: SessionParts, current: Surface, format: string, measured: SurfaceMeasure): void {
  const schemasUpFront = current.tools.filter((tool) => tool.id !== undefined && tool.deferred !== true).length;
  const maxTools = format in PROVIDER_MAX_TOOLS ? PROVIDER_MAX_TOOLS[format as SurfaceFormat] : undefined;
  const overLimit = maxTools !== undefined && current.tools.length > maxTools ? { providerMaxTools: maxTools } : {};
  // A format the mode cannot serve renders another one (native on OpenAI Chat renders tools): say so, per format.
  const fallback = current.fallbackReason === undefined ? {} : { renderedMode: current.mode, fallbackReason: current.fallbackReason };
  const rendered = { format, toolsDeclared: current.tools.length, schemasUpFront, ...measured, ...overLimit, ...fallback };
  parts.emit({ kind: 'surface', mode: current.mode, rendered });
  if (current.fallbackReason !== undefined && !parts.fellBack.has(format)) {
    parts.fellBack.add(format);
    parts.emit({ kind: 'fallback', fields: { requestedMode: current.requestedMode ?? parts.decision.mode, mode: current.mode, format, reason: current.fallbackReason } });
    parts.log.info({ format, requestedMode: current.requestedMode, mode: current.mode, reason: current.fallbackReason }, 'mode not available for this format, falling back');
  }
  // A request over the provider's documented limit is likely refused: say so, once per format, and suggest the fix.
  if (maxTools !== undefined && current.tools.length > maxTools && !parts.warnedFormats.has(format)) {
    parts.warnedFormats.add(format);
    parts.log.warn(
      { format, toolsDeclared: current.tools.length, providerMaxTools: maxTools, mode: current.mode },
      'surface declares more tools than the provider documents; use a tool-search mode (or auto)',
    );
  }
}
