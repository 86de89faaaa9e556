// npm install @tool-search/modes @tool-search/catalog   (Node >= 20), then: node readme-example.mjs
import { createCatalog } from '@tool-search/catalog';
import { measureSurface, renderSurface, toOpenAIResponsesTools, toolCallArgsSchema } from '@tool-search/modes';

const allowedTools = [ // already filtered by policy
  { name: 'get_weather', source: 'openclaw', owner: 'core', description: 'Get the weather forecast for a city.',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  { name: 'create_issue', source: 'mcp', owner: 'github', description: 'Create a new issue in a GitHub repository.' },
];
const clientTools = [{ name: 'show_toast', source: 'client', owner: 'app', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }];
const catalog = createCatalog(allowedTools);
const surface = renderSurface({ mode: 'tools', catalog, clientTools });

const request = { instructions: surface.instructions, tools: toOpenAIResponsesTools(surface.tools) };
console.log(request.tools.map((tool) => tool.name));
const size = measureSurface(surface, 'openai-responses'); // what the request costs, in bytes
console.log(Object.keys(size).join(', '));

// when the model calls tool_call:
const parsed = toolCallArgsSchema.safeParse(JSON.parse('{"id":"openclaw:core:get_weather","args":{"city":"Oslo"}}'));
console.log(parsed.success, parsed.data);
