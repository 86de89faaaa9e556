// The provider script of the comparison: what a capable model would do in each mode to reach one target
// tool, reacting to the tool outputs it actually gets back (ids are taken from search and describe results).
import { TOOL_SOURCES } from '@tool-search/catalog';
import { TOOL_CALL, TOOL_DESCRIBE, TOOL_SEARCH, TOOL_SEARCH_CODE } from '@tool-search/modes';
import type { FakeToolSpec } from './write-fake-plugin.js';
import type { ScriptRule } from './resolve-script-reply.js';

/** The user request and the target tool of a comparison run. */
export interface ComparisonTask {
  target: FakeToolSpec;
  /** What the scripted model searches for. */
  query: string;
  /** The marker the target is called with. */
  marker: string;
  /** The user's message. */
  prompt: string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A catalog id ending in `name`, as it appears in a tool result (JSON or text). */
export function idPattern(name: string): string {
  return `(?<id>(?:${TOOL_SOURCES.join('|')}):[A-Za-z0-9_.-]+:${escapeRegExp(name)})(?![A-Za-z0-9_])`;
}

/** Builds the task for a target: the query is the target's own description, minus its trailing clause. */
export function comparisonTask(target: FakeToolSpec, marker = 'e2e-marker-7'): ComparisonTask {
  const query = target.description.split(',')[0]!.replace(/^\w+/, (verb) => verb.replace(/s$/, '')).trim();
  return { target, query, marker, prompt: `${query}. Use the marker "${marker}".` };
}

/** The JavaScript the code-mode script sends: search, check the hit is the target, call it. */
export function codeModeProgram(task: ComparisonTask): string {
  return [
    `const hits = await tools.search(${JSON.stringify(task.query)});`,
    `const hit = hits.find((candidate) => candidate.name === ${JSON.stringify(task.target.name)});`,
    'if (!hit) return { found: false, names: hits.map((candidate) => candidate.name) };',
    `const outcome = await tools.call(hit.id, { marker: ${JSON.stringify(task.marker)} });`,
    'return { found: true, id: hit.id, outcome };',
  ].join('\n');
}

/**
 * The comparison script: direct mode calls the target by its declared name; code mode runs one
 * `tool_search_code` program; tools and directory modes search, describe the hit, then call it; native mode
 * searches with the provider's own mechanism (OpenAI Responses: a `tool_search_call`; Anthropic: our
 * `tool_search` tool) and calls the target by name once the answer loaded it. Any run ends with text once a
 * fake plugin result (or anything else) comes back.
 */
export function comparisonScript(task: ComparisonTask): ScriptRule[] {
  const name = task.target.name;
  const id = idPattern(name);
  const declaredName = new RegExp(`^(?:[A-Za-z0-9_-]*[^A-Za-z0-9])?${escapeRegExp(name)}$`);
  return [
    { id: 'finish', when: { lastToolResult: new RegExp(`FAKE_PLUGIN_OK (?<tool>${escapeRegExp(name)})`) }, reply: { text: 'Done: {{tool}} answered FAKE_PLUGIN_OK.' } },
    {
      id: 'native-call',
      when: { lastToolName: /^tool_search$/, loadedTool: declaredName },
      reply: { toolCalls: [{ name: '{{loadedTool}}', arguments: { marker: task.marker } }] },
    },
    {
      // Native mode with chat loading (`nativeSearch.chat: 'load'`): the search loaded the target as a function of
      // this request; the model calls it by name.
      id: 'chat-load-call',
      when: { api: 'chat', lastToolName: /^tool_search$/, declaresTool: declaredName },
      reply: { toolCalls: [{ name: '{{declaredTool}}', arguments: { marker: task.marker } }] },
    },
    {
      id: 'direct-call',
      when: { toolResults: 0, declaresTool: declaredName },
      reply: { toolCalls: [{ name: '{{declaredTool}}', arguments: { marker: task.marker } }] },
    },
    {
      id: 'code-run',
      when: { toolResults: 0, declaresTool: new RegExp(`^${TOOL_SEARCH_CODE}$`) },
      reply: { toolCalls: [{ name: TOOL_SEARCH_CODE, arguments: { code: codeModeProgram(task) } }] },
    },
    { id: 'native-search', when: { api: 'responses', toolResults: 0, declaresToolSearch: true }, reply: { toolSearch: { query: task.query } } },
    {
      id: 'native-search',
      when: { api: 'anthropic', toolResults: 0, defersTools: true, declaresTool: /^tool_search$/ },
      reply: { toolCalls: [{ name: TOOL_SEARCH, arguments: { query: task.query } }] },
    },
    {
      id: 'search',
      when: { toolResults: 0, declaresTool: /^tool_search$/ },
      reply: { toolCalls: [{ name: TOOL_SEARCH, arguments: { query: task.query } }] },
    },
    {
      id: 'describe',
      when: { lastToolName: /^tool_search$/, lastToolResult: new RegExp(id) },
      reply: { toolCalls: [{ name: TOOL_DESCRIBE, arguments: { id: '{{id}}' } }] },
    },
    {
      id: 'call',
      when: { lastToolName: new RegExp(`^${TOOL_DESCRIBE}$`), lastToolResult: new RegExp(`^(?=[\\s\\S]*"marker")[\\s\\S]*?${id}`) },
      reply: { toolCalls: [{ name: TOOL_CALL, arguments: { id: '{{id}}', args: { marker: task.marker } } }] },
    },
    { id: 'give-up', when: { minToolResults: 1 }, reply: { text: 'GAVE_UP: {{lastOutput}}' } },
  ];
}
