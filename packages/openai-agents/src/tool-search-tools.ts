// toolSearchTools: a session's surface as Agents SDK function tools, for its mode (code, tools, directory, direct).
import type { ModelSurface, ToolSearchSession } from '@tool-search/gateway-adapter';
import type { ClientCallHandler, SessionFunctionTool } from './internal/session-function-tool.js';
import { sessionFunctionTools } from './internal/session-function-tools.js';

/** Options of `toolSearchTools` and `toolSearchFor`. */
export interface AgentToolsOptions {
  /** The surface to declare, when the caller already has it (`session.modelSurface()`, e.g. for its `instructions`). */
  surface?: ModelSurface;
  /** Runs the session's client tools (the SDK runs every tool itself). Required when the session has client tools. */
  onClientCall?: ClientCallHandler | undefined;
}

/**
 * The session's tools for `new Agent({ tools })`: the control tools of its mode, its pinned and client tools and
 * (direct mode) every allowed tool, each a function tool whose call goes through `session.execute`. A control
 * tool whose schema is strict as it stands (`tool_search_code`) is strict, every other tool non-strict. A
 * snapshot of the surface: take it again for a later run to see catalog changes.
 */
export function toolSearchTools(session: ToolSearchSession, options: AgentToolsOptions = {}): SessionFunctionTool[] {
  const surface = options.surface ?? session.modelSurface();
  return sessionFunctionTools(session, surface, { onClientCall: options.onClientCall, deferred: () => false }).map((entry) => entry.functionTool);
}
