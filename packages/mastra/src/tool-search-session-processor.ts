// ToolSearchSessionProcessor: Mastra's ToolSearchProcessor contract (`processInputStep` returns `{ tools }`) backed by
// a tool-search session: its catalog's ranking, its policy, and every call through `session.execute`.
import { createTool } from '@mastra/core/tools';
import type { ProcessInputStepArgs, Processor } from '@mastra/core/processors';
import type { ToolSearchSession } from '@tool-search/gateway-adapter';
import { z } from 'zod';
import { MastraProcessorError } from './errors.js';
import { LOAD_TOOL, loadedToolNames, SEARCH_TOOLS } from './internal/loaded-tool-names.js';
import { sessionMastraTool, type ClientCallHandler, type SessionModelTool } from './internal/session-mastra-tool.js';

/** Options of `new ToolSearchSessionProcessor(session, options)`. */
export interface ToolSearchSessionProcessorOptions {
  /** Runs the session's client tools (Mastra runs every tool itself). Required when the session has client tools. */
  onClientCall?: ClientCallHandler | undefined;
  /** Deferral only (a `direct` session): how `search_tools` searches and loads. */
  search?: DeferredSearchOptions | undefined;
}

/** How a deferring processor's `search_tools` searches and loads (the `search` option of Mastra's processor). */
export interface DeferredSearchOptions {
  /** Hits per `search_tools` call. Default: the session's `searchDefaultLimit`; at most its `maxSearchLimit`. */
  topK?: number | undefined;
  /** `search_tools` loads its hits itself and there is no `load_tool` (Mastra's `autoLoad`). Default false. */
  autoLoad?: boolean | undefined;
}

/** Where this request's loads wait until their results are in the messages (Mastra's per-request processor state). */
const PENDING = 'toolSearchLoaded';

/**
 * An input processor for `new Agent({ inputProcessors: [processor] })` with the contract of Mastra's
 * `ToolSearchProcessor` (`processInputStep` returns `{ tools }`, the agent's own tools kept), backed by a session:
 *
 * - a session in `code`, `tools` or `directory` mode: its control tools, pinned and client tools, and its
 *   instructions as a system message;
 * - a `direct` session (best opened with config `{ native: true }`): deferral, as Mastra's processor does it:
 *   `search_tools` ranked by `session.search` (the session's policy view, its limits), `load_tool` (unless
 *   `search.autoLoad`), the pinned and client tools, and the tools loaded in the conversation, derived from its
 *   messages (Mastra's `storage: 'context'`: a restart or another replica given the same messages loses nothing).
 *
 * Every call runs through `session.execute`. The surface is read on each step, so a tool the policy no longer
 * allows is never declared, loaded or not.
 */
export class ToolSearchSessionProcessor implements Processor<'tool-search'> {
  /** The id Mastra's own ToolSearchProcessor has: one tool-search processor per agent. */
  readonly id = 'tool-search';
  /** The processor's display name in Mastra's traces. */
  readonly name = 'Tool Search (session)';
  /** What the processor does, for Mastra's traces. */
  readonly description = 'Tool discovery and loading ranked by a tool-search session under its policy';
  private readonly onClientCall: ClientCallHandler | undefined;
  private readonly topK: number;
  private readonly autoLoad: boolean;

  constructor(
    /** The session whose surface this processor declares and whose `execute` runs every call. */
    readonly session: ToolSearchSession,
    options: ToolSearchSessionProcessorOptions = {},
  ) {
    const { searchDefaultLimit, maxSearchLimit } = session.searchLimits;
    const topK = options.search?.topK ?? searchDefaultLimit;
    if (!Number.isSafeInteger(topK) || topK < 1) {
      throw new MastraProcessorError('invalid_options', `search.topK must be an integer >= 1, received ${String(topK)}`, { path: 'search.topK' });
    }
    this.topK = Math.min(topK, maxSearchLimit);
    this.autoLoad = options.search?.autoLoad === true;
    this.onClientCall = options.onClientCall;
    const clientTools = session.modelSurface().tools.filter((tool) => tool.kind === 'client').map((tool) => tool.name);
    if (clientTools.length > 0 && this.onClientCall === undefined) {
      throw new MastraProcessorError(
        'missing_client_handler',
        `The session declares client tools (${clientTools.join(', ')}); pass onClientCall to run them, Mastra has no tool the caller executes`,
      );
    }
  }

  /** The tools of this step: the agent's own, then the session's (the mode's, or deferral's meta-tools and loaded tools). */
  async processInputStep(args: ProcessInputStepArgs): Promise<{ tools: Record<string, unknown> }> {
    const surface = this.session.modelSurface();
    const own = args.tools ?? {};
    const asTool = (modelTool: SessionModelTool): [string, unknown] => [modelTool.name, sessionMastraTool(this.session, modelTool, this.onClientCall)];
    if (surface.mode !== 'direct') {
      if (surface.instructions !== '') args.messageList.addSystem(surface.instructions, 'tool-search');
      return { tools: { ...own, ...Object.fromEntries(surface.tools.map(asTool)) } };
    }
    const deferred = new Map(surface.tools.flatMap((tool) => (tool.kind === 'catalog' ? [[tool.name, tool] as const] : [])));
    const pending = new Set(Array.isArray(args.state[PENDING]) ? (args.state[PENDING] as string[]) : []);
    const loaded = new Set([...loadedToolNames(args.messages), ...pending]);
    const remember = (names: string[]): void => {
      for (const name of names) pending.add(name);
      args.state[PENDING] = [...pending];
    };
    if (deferred.size > 0) args.messageList.addSystem(this.instructions(deferred.size), 'tool-search');
    const meta: Record<string, unknown> = { [SEARCH_TOOLS]: this.searchTool(deferred, loaded, remember) };
    if (!this.autoLoad) meta[LOAD_TOOL] = this.loadTool(deferred, loaded, remember);
    const declared = surface.tools.filter((tool) => tool.kind !== 'catalog' || loaded.has(tool.name));
    return { tools: { ...own, ...meta, ...Object.fromEntries(declared.map(asTool)) } };
  }

  private instructions(deferred: number): string {
    const how = this.autoLoad ? 'call search_tools with what you want to do; the tools it finds are loaded for your next turn' : 'call search_tools with what you want to do, then load_tool with the names you need';
    return `${deferred} more tools are available but not loaded: ${how}, and call them directly by name.`;
  }

  private searchTool(deferred: ReadonlyMap<string, SessionModelTool>, loaded: Set<string>, remember: (names: string[]) => void) {
    const idToName = new Map([...deferred.values()].flatMap((tool) => (tool.id === undefined ? [] : [[tool.id, tool.name] as const])));
    return createTool({
      id: SEARCH_TOOLS,
      description: this.autoLoad
        ? 'Search for available tools by keyword. The matching tools are loaded and available on your next turn: call them directly.'
        : 'Search for available tools by keyword. Returns matching tools with their names and descriptions; load the ones you need with load_tool.',
      inputSchema: z.object({ query: z.string().describe('What you want to do, in a few keywords') }),
      execute: async ({ query }, context) => {
        const hits = this.session.search(query, { limit: this.topK, ...(context.agent?.toolCallId === undefined ? {} : { toolCallId: context.agent.toolCallId }) });
        const results = hits.flatMap((hit) => {
          const name = idToName.get(hit.id);
          const tool = name === undefined ? undefined : deferred.get(name);
          return tool === undefined ? [] : [{ name: tool.name, description: tool.description, score: hit.score }];
        });
        if (results.length === 0) return { results, message: `No tools found matching "${query}". Try different keywords.` };
        if (!this.autoLoad) return { results, message: `Found ${results.length} tool(s). Use load_tool with an exact toolName or a toolNames array to make them available.` };
        const names = results.map((result) => result.name);
        remember(names.filter((name) => !loaded.has(name)));
        for (const name of names) loaded.add(name);
        return { results, loaded: names, message: `Found and loaded ${names.length} tool(s): ${names.join(', ')}. They are available on your next turn: call them directly.` };
      },
    });
  }

  private loadTool(deferred: ReadonlyMap<string, SessionModelTool>, loaded: Set<string>, remember: (names: string[]) => void) {
    return createTool({
      id: LOAD_TOOL,
      description: 'Load one or more tools found with search_tools. Pass a toolName or a toolNames array; loaded tools are available on your next turn.',
      inputSchema: z.object({ toolName: z.string().optional(), toolNames: z.array(z.string()).optional() }),
      execute: async ({ toolName, toolNames }) => {
        const asked = [...new Set([...(toolNames ?? []), ...(toolName === undefined ? [] : [toolName])])];
        if (asked.length === 0) return { success: false, message: 'Pass toolName (a string) or toolNames (an array) to load.' };
        // A denied or unknown name is answered alike: it is not among the session's deferred tools.
        const notFound = asked.filter((name) => !deferred.has(name));
        const alreadyLoaded = asked.filter((name) => deferred.has(name) && loaded.has(name));
        const newly = asked.filter((name) => deferred.has(name) && !loaded.has(name));
        remember(newly);
        for (const name of newly) loaded.add(name);
        const parts = [
          ...(newly.length > 0 ? [`Loaded: ${newly.join(', ')}; available on your next turn`] : []),
          ...(alreadyLoaded.length > 0 ? [`Already loaded: ${alreadyLoaded.join(', ')}`] : []),
          ...(notFound.length > 0 ? [`Not found: ${notFound.join(', ')}; use search_tools to find tools`] : []),
        ];
        return { success: notFound.length === 0, message: parts.join(' | '), loaded: [...newly, ...alreadyLoaded], ...(notFound.length > 0 ? { notFound } : {}) };
      },
    });
  }
}
