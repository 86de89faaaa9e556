// Answering the model's native tool search (OpenAI Responses) from the policy-filtered catalog.
import { createCatalog } from '@tool-search/catalog';
import { parseOpenAIToolSearchCall, renderOpenAIToolSearchOutput, renderSurface } from '@tool-search/modes';

const catalog = createCatalog([
  { name: 'get_weather', source: 'openclaw', owner: 'core', description: 'Get the weather forecast for a city.' },
  { name: 'create_issue', source: 'mcp', owner: 'github', description: 'Create a new issue in a GitHub repository.' },
]);
const surface = renderSurface({ mode: 'native', format: 'openai-responses', catalog });
const input = [];
const alreadyLoaded = new Set();
// An output item of the model's response, of type tool_search_call:
const item = { type: 'tool_search_call', id: 'tsc_1', call_id: 'call_1', execution: 'client', status: 'completed', arguments: { query: 'weather forecast' } };

const call = parseOpenAIToolSearchCall(item); // { ok, callId, args, queries } or { ok: false, callId?, message }
if (call.callId !== undefined) {
  const hits = call.ok ? catalog.searchMany(call.queries).flat() : [];
  const { item: output, loadedIds } = renderOpenAIToolSearchOutput(surface, { callId: call.callId, hits, alreadyLoaded });
  input.push(output); // after the response's output items; then the next responses.create
  for (const id of loadedIds) alreadyLoaded.add(id);
}
const [namespace] = input[0].tools; // a namespace per server, with the tools it loads
console.log(input[0].type, namespace.name, namespace.tools.map((tool) => tool.name), [...alreadyLoaded]);
