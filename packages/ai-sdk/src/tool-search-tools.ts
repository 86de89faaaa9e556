// toolSearchTools: a session's surface as an AI SDK tool set, for its mode (code, tools, directory, direct).
import type { ModelSurface, ToolSearchSession } from '@tool-search/gateway-adapter';
import type { ToolSet } from 'ai';
import { sessionTool } from './internal/session-tool.js';

/** Options of `toolSearchTools`. */
export interface ToolSearchToolsOptions {
  /** The surface to declare, when the caller already has it (`session.modelSurface()`, e.g. for its `instructions`). */
  surface?: ModelSurface;
}

/**
 * The session's tools as an AI SDK `ToolSet`, keyed by the names the model calls: the control tools of its mode,
 * its pinned tools and (direct mode) every allowed tool. Each call goes through `session.execute`; client tools
 * are declared without `execute`, so the SDK returns their calls to the caller. A snapshot of the surface: take
 * it again for a later generation to see catalog changes.
 */
export function toolSearchTools(session: ToolSearchSession, options: ToolSearchToolsOptions = {}): ToolSet {
  const surface = options.surface ?? session.modelSurface();
  return Object.fromEntries(surface.tools.map((modelTool) => [modelTool.name, sessionTool(session, modelTool, { deferLoading: false })]));
}
