// The loaded set of a conversation, derived from its messages (as Mastra's `storage: 'context'`): a tool is loaded
// while a completed `search_tools` / `load_tool` result that names it is in the conversation.
import type { ProcessInputStepArgs } from '@mastra/core/processors';

/** The meta-tool names, as Mastra's ToolSearchProcessor names them. */
export const SEARCH_TOOLS = 'search_tools';
export const LOAD_TOOL = 'load_tool';

/**
 * The names one meta-tool result loaded: its `loaded` list (a `load_tool` of several names, an auto-loading
 * `search_tools`), and `toolName` when `success` is true (a `load_tool` of one name). A plain search's `results`
 * load nothing: they are suggestions for `load_tool`.
 */
export function activatedNames(result: unknown): string[] {
  if (typeof result !== 'object' || result === null) return [];
  const record = result as Record<string, unknown>;
  const names: string[] = [];
  if (typeof record['toolName'] === 'string' && record['success'] === true) names.push(record['toolName']);
  if (Array.isArray(record['loaded'])) names.push(...record['loaded'].filter((name): name is string => typeof name === 'string'));
  return names;
}

/** Every tool name the conversation's completed meta-tool results loaded. */
export function loadedToolNames(messages: ProcessInputStepArgs['messages']): Set<string> {
  const loaded = new Set<string>();
  for (const message of messages) {
    for (const part of message.content?.parts ?? []) {
      if (part.type !== 'tool-invocation') continue;
      const invocation = part.toolInvocation;
      if (invocation.state !== 'result' || (invocation.toolName !== SEARCH_TOOLS && invocation.toolName !== LOAD_TOOL)) continue;
      for (const name of activatedNames(invocation.result)) loaded.add(name);
    }
  }
  return loaded;
}
