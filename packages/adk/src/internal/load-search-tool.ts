// The search tool of a deferring toolset: the session's search, whose hits are loaded into the conversation's state.
import { BaseTool, type RunAsyncToolRequest } from '@google/adk';
import type { ToolSearchSession } from '@tool-search/gateway-adapter';
import { buildNativeSearchTool, toolSearchArgsSchema } from '@tool-search/modes';
import { callIdOf, type FunctionDeclarationOf, type SessionModelTool } from './session-tool.js';

/** What a deferring toolset's search tool needs: the deferred tools by id, and the loaded set in the conversation's state. */
export interface LoadSearchContext {
  session: ToolSearchSession;
  /** The deferred (catalog) tools of the surface the declaration was made from, by catalog id. */
  deferredById: ReadonlyMap<string, SessionModelTool>;
  /** The loaded ids in this state, in load order. */
  readLoaded: (state: RunAsyncToolRequest['toolContext']['state']) => string[];
  /** The session state key the loaded ids are kept under. */
  stateKey: string;
}

/**
 * `tool_search` as native mode declares it (`{ query, limit? }` or `{ queries }`, "the best matching tools are
 * loaded: call them directly by name"). Each query runs through `session.search` (its policy view, its limits;
 * counted and logged with ADK's call id); the hits that are deferred tools of this toolset are added to the
 * loaded ids in the session state (ADK keeps the delta with the function response event, so the session service
 * persists it), and from the next model call on the toolset declares them. Arguments it cannot read load nothing.
 */
export class LoadSearchTool extends BaseTool {
  private readonly declaration: FunctionDeclarationOf;

  constructor(private readonly context: LoadSearchContext) {
    const modelTool = buildNativeSearchTool({ ...context.session.searchLimits, codeTimeoutMs: 0 }, 'openai-client');
    super({ name: modelTool.name, description: modelTool.description });
    this.declaration = { name: modelTool.name, description: modelTool.description, parametersJsonSchema: modelTool.inputSchema };
  }

  override _getDeclaration(): FunctionDeclarationOf {
    return this.declaration;
  }

  override async runAsync({ args, toolContext }: RunAsyncToolRequest): Promise<unknown> {
    const parsed = toolSearchArgsSchema.safeParse(args);
    if (!parsed.success) return { error: 'tool_search expects { query, limit? } or { queries: [...] }; nothing was loaded.' };
    const { limit } = parsed.data;
    const queries = parsed.data.query !== undefined ? [{ query: parsed.data.query, limit }] : (parsed.data.queries ?? []).map((query) => (typeof query === 'string' ? { query, limit } : { query: query.query, limit: query.limit ?? limit }));
    const toolCallId = callIdOf(toolContext);
    const loaded = this.context.readLoaded(toolContext.state);
    const already = new Set(loaded);
    const found: SessionModelTool[] = [];
    for (const query of queries) {
      for (const hit of this.context.session.search(query.query, { limit: query.limit, toolCallId })) {
        const tool = this.context.deferredById.get(hit.id);
        if (tool === undefined || found.includes(tool)) continue;
        found.push(tool);
      }
    }
    const added = found.flatMap((tool) => (tool.id === undefined || already.has(tool.id) ? [] : [tool.id]));
    if (added.length > 0) toolContext.state.set(this.context.stateKey, [...loaded, ...added]);
    if (found.length === 0) return { result: 'No tool matched: search again with other words.', tools: [] };
    return {
      result: `Loaded ${found.length} tool(s): call them directly by name.`,
      tools: found.map((tool) => ({ name: tool.name, description: tool.description })),
    };
  }
}
