// toolSearchFor: the AI SDK's own deferred loading (`deferLoading` and `toolSearch`) with the session's search
// (its policy view of the catalog, its limits) as the ranking.
import type { ModelSurface, ToolSearchSession } from '@tool-search/gateway-adapter';
import { TOOL_SEARCH } from '@tool-search/modes';
import { toolSearch, type ToolSet } from 'ai';
import { AiSdkError } from './errors.js';
import { sessionTool } from './internal/session-tool.js';

/** Options of `toolSearchFor`. */
export interface ToolSearchForOptions {
  /** Tools loaded per search. Default: the session's `searchDefaultLimit`; at most its `maxSearchLimit`. */
  maxResults?: number;
  /** The surface to declare, when the caller already has it. */
  surface?: ModelSurface;
}

/**
 * An AI SDK `ToolSet` that defers every allowed catalog tool (`deferLoading: true`) behind the SDK's `toolSearch`
 * tool (named `tool_search`), whose `search` callback is `session.search`: the model first sees only the search,
 * pinned and client tools, and a search loads the best allowed matches for the next step. Needs a `direct`
 * session (one that declares every allowed tool, e.g. config `{ native: true }`): any other mode throws
 * `AiSdkError('wrong_mode')`; a `maxResults` that is not an integer >= 1 throws `invalid_options`.
 */
export function toolSearchFor(session: ToolSearchSession, options: ToolSearchForOptions = {}): ToolSet {
  const surface = options.surface ?? session.modelSurface();
  if (surface.mode !== 'direct') {
    throw new AiSdkError(
      'wrong_mode',
      `toolSearchFor needs a session in direct mode (every allowed tool declared, e.g. config { native: true }), received a ${surface.mode} mode session`,
    );
  }
  const { searchDefaultLimit, maxSearchLimit } = session.searchLimits;
  const maxResults = options.maxResults ?? searchDefaultLimit;
  if (!Number.isSafeInteger(maxResults) || maxResults < 1) {
    throw new AiSdkError('invalid_options', `maxResults must be an integer >= 1, received ${String(maxResults)}`, { path: 'maxResults' });
  }
  const loadPerSearch = Math.min(maxResults, maxSearchLimit);
  const nameOfId = new Map(surface.tools.flatMap((tool) => (tool.id === undefined ? [] : [[tool.id, tool.name] as const])));
  // Pinned tools are in the catalog but never deferred: ask for enough hits that they cannot crowd out a result.
  const pinned = surface.tools.filter((tool) => tool.kind === 'pinned').length;
  const tools: ToolSet = {
    [TOOL_SEARCH]: toolSearch({
      maxResults: loadPerSearch,
      search: ({ query, tools: eligible }) => {
        const names = new Set(eligible.map((tool) => tool.name));
        const hits = session.search(query, { limit: Math.min(loadPerSearch + pinned, maxSearchLimit) });
        return hits.flatMap((hit) => {
          const name = nameOfId.get(hit.id);
          return name !== undefined && names.has(name) ? [name] : [];
        });
      },
    }),
  };
  for (const modelTool of surface.tools) tools[modelTool.name] = sessionTool(session, modelTool, { deferLoading: modelTool.kind === 'catalog' });
  return tools;
}
