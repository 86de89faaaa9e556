// ToolSearchToolset: a tool-search session as a Google ADK toolset, for `new LlmAgent({ tools: [toolset] })`.
import { BaseToolset, type BaseTool, type ReadonlyContext } from '@google/adk';
import type { ToolSearchSession } from '@tool-search/gateway-adapter';
import { AdkError } from './errors.js';
import { LoadSearchTool } from './internal/load-search-tool.js';
import { SessionTool, type ClientCallHandler, type SessionModelTool } from './internal/session-tool.js';

/** The session state key the loaded tool ids are kept under by default. */
export const DEFAULT_LOADED_STATE_KEY = 'tool_search_loaded';

/** Options of `new ToolSearchToolset(session, options)`. */
export interface ToolSearchToolsetOptions {
  /** Runs the session's client tools (ADK runs every tool itself). Required when the session has client tools. */
  onClientCall?: ClientCallHandler | undefined;
  /**
   * The ADK session state key of the loaded tool ids (deferring toolsets). Default `tool_search_loaded`; a
   * `temp:` key keeps them for one invocation only, which is not what loading means here.
   */
  stateKey?: string | undefined;
}

/** The read-only view of ADK session state the toolset reads (`ReadonlyContext.state`, `Context.state`). */
export interface StateReader {
  /** The value under `key` (ADK's `State.get`). */
  get<T>(key: string, defaultValue?: T): T | undefined;
}

/**
 * A tool-search session as an ADK `BaseToolset`. `getTools(context)` returns, on every model call:
 *
 * - a session in `code`, `tools` or `directory` mode: its control tools (`tool_search_code`, or `tool_search`,
 *   `tool_describe`, `tool_call`) with its pinned and client tools;
 * - a `direct` session (best opened with config `{ native: true }`): deferral, which Gemini lacks: a
 *   `tool_search` whose hits are loaded, the pinned and client tools, and the catalog tools loaded in this
 *   conversation (their ids in the ADK session state, so a restart or another replica with the same session
 *   service loses nothing).
 *
 * Every call goes through `session.execute` (policy, hooks, approvals, argument validation). The surface is read
 * again on each call, so a tool the policy no longer allows is never declared, loaded or not.
 */
export class ToolSearchToolset extends BaseToolset {
  private readonly onClientCall: ClientCallHandler | undefined;
  private readonly stateKey: string;

  constructor(
    /** The session whose surface this toolset declares and whose `execute` runs every call. */
    readonly session: ToolSearchSession,
    options: ToolSearchToolsetOptions = {},
  ) {
    super([]);
    const stateKey = options.stateKey ?? DEFAULT_LOADED_STATE_KEY;
    if (typeof stateKey !== 'string' || stateKey.trim() === '') {
      throw new AdkError('invalid_options', `stateKey must be a non-empty string, received ${JSON.stringify(stateKey)}`, { path: 'stateKey' });
    }
    this.stateKey = stateKey;
    this.onClientCall = options.onClientCall;
    const clientTools = session.modelSurface().tools.filter((tool) => tool.kind === 'client').map((tool) => tool.name);
    if (clientTools.length > 0 && this.onClientCall === undefined) {
      throw new AdkError(
        'missing_client_handler',
        `The session declares client tools (${clientTools.join(', ')}); pass onClientCall to run them, ADK has no tool the caller executes`,
      );
    }
  }

  /** The tools for this model call: the session's mode, plus (deferring) the tools loaded in the conversation. */
  override async getTools(context?: ReadonlyContext): Promise<BaseTool[]> {
    const surface = this.session.modelSurface();
    const asTool = (modelTool: SessionModelTool): BaseTool => new SessionTool(this.session, modelTool, this.onClientCall);
    if (surface.mode !== 'direct') return surface.tools.map(asTool);
    const deferredById = new Map(surface.tools.flatMap((tool) => (tool.kind === 'catalog' && tool.id !== undefined ? [[tool.id, tool] as const] : [])));
    const loaded = new Set(context === undefined ? [] : this.loadedIds(context.state));
    const search = new LoadSearchTool({ session: this.session, deferredById, readLoaded: (state) => this.loadedIds(state), stateKey: this.stateKey });
    const declared = surface.tools.filter((tool) => tool.kind !== 'catalog' || (tool.id !== undefined && loaded.has(tool.id)));
    return [search, ...declared.map(asTool)];
  }

  /**
   * The agent's instruction for this toolset (`new LlmAgent({ instruction: toolset.instruction })`): the session's
   * instructions in a search mode; for a deferring toolset, how many tools `tool_search` can load. A function, so
   * ADK does not treat `{...}` in it as a state placeholder.
   */
  readonly instruction = (): string => {
    const surface = this.session.modelSurface();
    if (surface.mode !== 'direct') return surface.instructions;
    const deferred = surface.tools.filter((tool) => tool.kind === 'catalog').length;
    if (deferred === 0) return '';
    return `${deferred} more tools are available but not declared yet: call tool_search with what you want to do, then call the tools it loads directly by name.`;
  };

  /** The loaded tool ids kept in an ADK session state (the strings of the value under `stateKey`, in load order). */
  loadedIds(state: StateReader): string[] {
    const value = state.get<unknown>(this.stateKey);
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  }

  /** Nothing to release: the session belongs to its host (`host.close()` or `session.close()`). */
  override async close(): Promise<void> {}
}
