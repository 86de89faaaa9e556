// An MCP server on SDK v2 that serves only protocol revision 2026-07-28 (a 2025 `initialize` is refused), for the
// client's era tests. Run as a script it serves stdio (`serveStdio`, `legacy: 'reject'`); imported, it hands out
// the factory that an in-test `createMcpHandler` serves over HTTP. Tools: `echo`; `deploy`, which asks for a
// confirmation mid-call (`input_required`, answered by the client's elicitation handler); `grow`, which adds a
// tool `grown` (a list change); one prompt, `greet`.
// Its tool and prompt lists carry `ttlMs`, so a client may serve a re-list from its cache.
import { fileURLToPath } from 'node:url';
import { acceptedContent, inputRequired, inputResponse, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod/v4';

/** How long a `tools/list` or `prompts/list` result may be served from a client's cache. */
export const MODERN_LIST_TTL_MS = 60_000;

/** Builds a fresh server (one per HTTP request, one per stdio connection). */
export function createModernServer() {
  const server = new McpServer(
    { name: 'modern-fixture', version: '1.0.0' },
    {
      capabilities: { tools: { listChanged: true }, prompts: {} },
      cacheHints: { 'tools/list': { ttlMs: MODERN_LIST_TTL_MS, cacheScope: 'private' }, 'prompts/list': { ttlMs: MODERN_LIST_TTL_MS, cacheScope: 'private' } },
    },
  );
  server.registerTool('echo', { description: 'Echo a text back.', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  const confirmation = z.object({ confirm: z.boolean() });
  server.registerTool('deploy', { description: 'Deploy after a confirmation.', inputSchema: z.object({ env: z.string() }) }, async ({ env }, ctx) => {
    const view = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
    if (view.kind === 'elicit' && view.action !== 'accept') return { content: [{ type: 'text', text: `Not deployed to ${env}: ${view.action}` }], isError: true };
    const answer = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', confirmation);
    if (answer === undefined) {
      return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: `Deploy to ${env}?`, requestedSchema: confirmation }) } });
    }
    return answer.confirm ? { content: [{ type: 'text', text: `Deployed to ${env}` }] } : { content: [{ type: 'text', text: `Not deployed to ${env}` }], isError: true };
  });
  // Registering a tool announces a changed list, which a 2026-07-28 client hears on its subscriptions/listen stream.
  server.registerTool('grow', { description: 'Add the tool `grown` to this server.' }, async () => {
    server.registerTool('grown', { description: 'A tool added while connected.' }, async () => ({ content: [{ type: 'text', text: 'grown' }] }));
    return { content: [{ type: 'text', text: 'added grown' }] };
  });
  server.registerPrompt('greet', { description: 'A greeting.' }, async () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'Hello' } }] }));
  return server;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  serveStdio(createModernServer, { legacy: 'reject' });
}
