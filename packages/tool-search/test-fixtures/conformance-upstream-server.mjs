// An upstream MCP server over stdio, built with the MCP SDK (McpServer), that implements the reference tools,
// resources and prompts the official conformance suite's server scenarios ask for, so the suite can be run
// against `tool-search serve` in front of it. Over stdio there is no SSE stream to close, so `test_reconnection`
// simply answers.
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CompleteRequestSchema, ElicitResultSchema, ListToolsRequestSchema, SetLevelRequestSchema, SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** A 1x1 red PNG and a minimal WAV, base64. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const text = (value) => ({ content: [{ type: 'text', text: value }] });

const server = new McpServer(
  { name: 'conformance-upstream', version: '1.0.0' },
  { capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true }, logging: {}, completions: {} } },
);
const subscriptions = new Set();

// ===== tools =====
const noArgs = (name, description, handler) => server.registerTool(name, { description, inputSchema: {} }, handler);
noArgs('test_simple_text', 'Tests simple text content response', async () => text('This is a simple text response for testing.'));
noArgs('test_image_content', 'Tests image content response', async () => ({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }));
noArgs('test_audio_content', 'Tests audio content response', async () => ({ content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] }));
noArgs('test_embedded_resource', 'Tests embedded resource content response', async () => ({
  content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
}));
noArgs('test_multiple_content_types', 'Tests response with multiple content types (text, image, resource)', async () => ({
  content: [
    { type: 'text', text: 'Multiple content types test:' },
    { type: 'image', data: PNG, mimeType: 'image/png' },
    { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) } },
  ],
}));
noArgs('test_tool_with_logging', 'Tests tool that emits log messages during execution', async (_args, { sendNotification }) => {
  for (const [index, message] of ['Tool execution started', 'Tool processing data', 'Tool execution completed'].entries()) {
    if (index > 0) await sleep(50);
    await sendNotification({ method: 'notifications/message', params: { level: 'info', data: message } });
  }
  return text('Tool with logging executed successfully');
});
noArgs('test_tool_with_progress', 'Tests tool that reports progress notifications', async (_args, { sendNotification, _meta }) => {
  const progressToken = _meta?.progressToken ?? 0;
  for (const [index, progress] of [0, 50, 100].entries()) {
    if (index > 0) await sleep(50);
    await sendNotification({ method: 'notifications/progress', params: { progressToken, progress, total: 100, message: `Completed step ${progress} of 100` } });
  }
  return text(String(progressToken));
});
noArgs('test_error_handling', 'Tests error response handling', async () => {
  throw new Error('This tool intentionally returns an error for testing');
});
noArgs('test_reconnection', 'Tests SSE stream disconnection and client reconnection (SEP-1699); over stdio it only answers', async () => {
  await sleep(100);
  return text('Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.');
});
server.registerTool('test_sampling', { description: 'Tests server-initiated sampling (LLM completion request)', inputSchema: { prompt: z.string().describe('The prompt to send to the LLM') } }, async ({ prompt }) => {
  try {
    const result = await server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 });
    return text(`LLM response: ${result.content?.text ?? 'No response'}`);
  } catch (error) {
    return text(`Sampling not supported or error: ${error.message}`);
  }
});
const elicit = async (message, requestedSchema, label) => {
  try {
    const result = await server.server.request({ method: 'elicitation/create', params: { message, requestedSchema } }, ElicitResultSchema);
    return text(`${label}: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`);
  } catch (error) {
    return text(`Elicitation not supported or error: ${error.message}`);
  }
};
server.registerTool('test_elicitation', { description: 'Tests server-initiated elicitation (user input request)', inputSchema: { message: z.string().describe('The message to show the user') } }, async ({ message }) =>
  elicit(message, { type: 'object', properties: { response: { type: 'string', description: "User's response" } }, required: ['response'] }, 'User response'),
);
noArgs('test_elicitation_sep1034_defaults', 'Tests elicitation with default values per SEP-1034', async () =>
  elicit(
    'Please review and update the form fields with defaults',
    {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'User name', default: 'John Doe' },
        age: { type: 'integer', description: 'User age', default: 30 },
        score: { type: 'number', description: 'User score', default: 95.5 },
        status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
        verified: { type: 'boolean', description: 'Verification status', default: true },
      },
      required: [],
    },
    'Elicitation completed',
  ),
);
noArgs('test_elicitation_sep1330_enums', 'Tests elicitation with enum schema improvements per SEP-1330', async () =>
  elicit(
    'Please select options from the enum fields',
    {
      type: 'object',
      properties: {
        untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
        titledSingle: {
          type: 'string',
          description: 'Select one option with titles',
          oneOf: [
            { const: 'value1', title: 'First Option' },
            { const: 'value2', title: 'Second Option' },
            { const: 'value3', title: 'Third Option' },
          ],
        },
        legacyEnum: { type: 'string', description: 'Select one option (legacy)', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
        untitledMulti: { type: 'array', description: 'Select multiple options', minItems: 1, maxItems: 3, items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
        titledMulti: {
          type: 'array',
          description: 'Select multiple options with titles',
          minItems: 1,
          maxItems: 3,
          items: {
            anyOf: [
              { const: 'value1', title: 'First Choice' },
              { const: 'value2', title: 'Second Choice' },
              { const: 'value3', title: 'Third Choice' },
            ],
          },
        },
      },
      required: [],
    },
    'Elicitation completed',
  ),
);
/** Listed with a raw JSON Schema 2020-12 (`$schema`, `$defs`, `additionalProperties`), which the suite checks survive. */
const JSON_SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
  properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
  additionalProperties: false,
};
server.registerTool(
  'json_schema_2020_12_tool',
  { description: 'Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)', inputSchema: { name: z.string().optional(), address: z.object({ street: z.string().optional(), city: z.string().optional() }).optional() } },
  async (args) => text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`),
);

// ===== resources =====
const staticResource = (name, uri, title, description, mimeType, contents) =>
  server.registerResource(name, uri, { title, description, mimeType }, async () => ({ contents: [{ uri, mimeType, ...contents }] }));
staticResource('static-text', 'test://static-text', 'Static Text Resource', 'A static text resource for testing', 'text/plain', { text: 'This is the content of the static text resource.' });
staticResource('static-binary', 'test://static-binary', 'Static Binary Resource', 'A static binary resource (image) for testing', 'image/png', { blob: PNG });
staticResource('watched-resource', 'test://watched-resource', 'Watched Resource', 'A resource that auto-updates every 3 seconds', 'text/plain', { text: 'Watched resource content' });
server.registerResource(
  'template',
  new ResourceTemplate('test://template/{id}/data', { list: undefined }),
  { title: 'Resource Template', description: 'A resource template with parameter substitution', mimeType: 'application/json' },
  async (uri, { id }) => ({ contents: [{ uri: uri.toString(), mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }] }),
);
server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
  subscriptions.add(request.params.uri);
  return {};
});
server.server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
  subscriptions.delete(request.params.uri);
  return {};
});

// ===== prompts =====
const userText = (value) => ({ role: 'user', content: { type: 'text', text: value } });
server.registerPrompt('test_simple_prompt', { title: 'Simple Test Prompt', description: 'A simple prompt without arguments' }, async () => ({ messages: [userText('This is a simple prompt for testing.')] }));
server.registerPrompt(
  'test_prompt_with_arguments',
  { title: 'Prompt With Arguments', description: 'A prompt with required arguments', argsSchema: { arg1: z.string().describe('First test argument'), arg2: z.string().describe('Second test argument') } },
  async ({ arg1, arg2 }) => ({ messages: [userText(`Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`)] }),
);
server.registerPrompt(
  'test_prompt_with_embedded_resource',
  { title: 'Prompt With Embedded Resource', description: 'A prompt that includes an embedded resource', argsSchema: { resourceUri: z.string().describe('URI of the resource to embed') } },
  async ({ resourceUri }) => ({
    messages: [{ role: 'user', content: { type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } }, userText('Please process the embedded resource above.')],
  }),
);
server.registerPrompt('test_prompt_with_image', { title: 'Prompt With Image', description: 'A prompt that includes image content' }, async () => ({
  messages: [{ role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } }, userText('Please analyze the image above.')],
}));

// ===== logging, completion, and the raw 2020-12 schema in tools/list =====
server.server.setRequestHandler(SetLevelRequestSchema, async () => ({}));
server.server.setRequestHandler(CompleteRequestSchema, async () => ({ completion: { values: [], total: 0, hasMore: false } }));
const listTools = server.server['_requestHandlers'].get('tools/list');
server.server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
  const listed = await listTools(request, extra);
  return { ...listed, tools: listed.tools.map((tool) => (tool.name === 'json_schema_2020_12_tool' ? { name: tool.name, description: tool.description, inputSchema: JSON_SCHEMA_2020_12 } : tool)) };
});

await server.connect(new StdioServerTransport());
