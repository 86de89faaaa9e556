// An upstream MCP server on SDK v2 that serves only revision 2026-07-28 over stdio, with the tools and the prompt the
// 0.2 conformance suite's `input-required-result-*` scenarios call by name (each asks its client something as
// `input_required`, under the keys the scenarios name). Run behind `tool-search serve --http` for the 2026-07-28
// run, next to conformance-upstream-server.mjs: the front must pass the questions on under these keys. Its own
// `requestState` is HMAC-signed (the SDK's codec), as the spec asks of state a server trusts.
import { randomBytes } from 'node:crypto';
import { createRequestStateCodec, inputRequired, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const codec = createRequestStateCodec({ key: randomBytes(32), ttlSeconds: 600 });
const text = (value) => ({ content: [{ type: 'text', text: value }] });
const object = (properties) => ({ type: 'object', properties, required: Object.keys(properties) });
const elicit = (message, properties) => inputRequired.elicit({ message, requestedSchema: object(properties) });
const ask = (text, maxTokens) => inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens });
/** The accepted content of the answer under `key`, or undefined. */
const accepted = (ctx, key) => {
  const answer = ctx.mcpReq.inputResponses?.[key];
  return answer?.action === 'accept' ? answer.content : undefined;
};
const answered = (ctx, key) => ctx.mcpReq.inputResponses?.[key] !== undefined;

function createServer() {
  const server = new McpServer({ name: 'conformance-mrtr-upstream', version: '1.0.0' }, { capabilities: { tools: {}, prompts: {} }, requestState: { verify: codec.verify } });
  const tool = (name, description, handler) => server.registerTool(name, { description }, async (ctx) => handler(ctx));

  // An answer under the right key completes the call whatever it is (a declined question included); an answer
  // under another key asks again.
  tool('test_input_required_result_elicitation', 'Asks the user for their name, then greets them', async (ctx) => {
    if (!answered(ctx, 'user_name')) return inputRequired({ inputRequests: { user_name: elicit('What is your name?', { name: { type: 'string' } }) } });
    return text(`Hello, ${accepted(ctx, 'user_name')?.name ?? 'stranger'}!`);
  });
  tool('test_input_required_result_sampling', 'Asks the model for the capital of France', async (ctx) => {
    const reply = ctx.mcpReq.inputResponses?.capital_question;
    if (reply === undefined) return inputRequired({ inputRequests: { capital_question: ask('What is the capital of France?', 100) } });
    return text(`The model said: ${reply.content?.text ?? JSON.stringify(reply.content)}`);
  });
  tool('test_input_required_result_list_roots', "Asks for the client's roots", async (ctx) => {
    const roots = ctx.mcpReq.inputResponses?.client_roots?.roots;
    if (!Array.isArray(roots)) return inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } });
    return text(`Roots: ${roots.map((root) => root.uri).join(', ')}`);
  });
  tool('test_input_required_result_request_state', 'Asks for a confirmation and checks its own state on the retry', async (ctx) => {
    const state = ctx.mcpReq.requestState();
    if (state?.step === 'confirm' && answered(ctx, 'confirm')) return text('state-ok: confirmed');
    return inputRequired({ inputRequests: { confirm: elicit('Please confirm', { ok: { type: 'boolean' } }) }, requestState: await codec.mint({ step: 'confirm' }) });
  });
  tool('test_input_required_result_multiple_inputs', 'Asks for a name, a greeting and the roots at once', async (ctx) => {
    if (['user_name', 'greeting', 'client_roots'].every((key) => answered(ctx, key))) return text(`Hello, ${accepted(ctx, 'user_name')?.name ?? 'you'}!`);
    return inputRequired({
      inputRequests: { user_name: elicit('What is your name?', { name: { type: 'string' } }), greeting: ask('Generate a greeting', 50), client_roots: inputRequired.listRoots() },
      requestState: await codec.mint({ step: 'all' }),
    });
  });
  tool('test_input_required_result_multi_round', 'Asks for a name, then for a colour', async (ctx) => {
    const state = ctx.mcpReq.requestState();
    if (state?.step === 'step2' && answered(ctx, 'step2')) return text(`Hello, ${state.name}: ${accepted(ctx, 'step2')?.color ?? 'no colour'}`);
    if (state?.step === 'step1' && answered(ctx, 'step1')) {
      return inputRequired({ inputRequests: { step2: elicit('Step 2: What is your favorite color?', { color: { type: 'string' } }) }, requestState: await codec.mint({ step: 'step2', name: accepted(ctx, 'step1')?.name ?? 'you' }) });
    }
    return inputRequired({ inputRequests: { step1: elicit('Step 1: What is your name?', { name: { type: 'string' } }) }, requestState: await codec.mint({ step: 'step1' }) });
  });
  // Asks only what the client can answer: its elicitation question only of a client that declared elicitation.
  tool('test_input_required_result_capabilities', 'Asks for a name and a greeting, as far as the client can answer', async (ctx) => {
    if (answered(ctx, 'greeting')) return text('answered');
    const canElicit = server.server.getClientCapabilities()?.elicitation !== undefined;
    return inputRequired({ inputRequests: { ...(canElicit ? { user_name: elicit('What is your name?', { name: { type: 'string' } }) } : {}), greeting: ask('Generate a greeting', 50) } });
  });
  tool('test_input_required_result_tampered_state', 'Asks for a confirmation under a signed state', async (ctx) => {
    if (ctx.mcpReq.requestState()?.step === 'tamper' && answered(ctx, 'confirm')) return text('state-ok');
    return inputRequired({ inputRequests: { confirm: elicit('Please confirm', { ok: { type: 'boolean' } }) }, requestState: await codec.mint({ step: 'tamper' }) });
  });
  server.registerPrompt('test_input_required_result_prompt', { description: 'A prompt that asks for its context first' }, async (ctx) => {
    if (!answered(ctx, 'user_context')) return inputRequired({ inputRequests: { user_context: elicit('What context should the prompt use?', { context: { type: 'string' } }) } });
    return { messages: [{ role: 'user', content: { type: 'text', text: `Context: ${accepted(ctx, 'user_context')?.context ?? 'none'}` } }] };
  });
  return server;
}

serveStdio(createServer, { legacy: 'reject' });
