// `/metrics` is an operator's view (it names every server and counts every tool, whatever a client's policy
// admits): it takes its own token, never the MCP clients'.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createToolSearchHost } from '@tool-search/gateway-adapter';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolSearchHttpHandler, type CreateToolSearchHttpHandlerOptions } from './create-tool-search-http-handler.js';
import { listenOnLoopback } from './internal/listen-on-loopback.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const metrics = (_request: IncomingMessage, response: ServerResponse) => void response.writeHead(200, { 'content-type': 'text/plain' }).end('tool_search_upstream_up{tool_search_server="hrsecret"} 1\n');

async function serve(options: Partial<CreateToolSearchHttpHandlerOptions>): Promise<string> {
  const host = await createToolSearchHost({ sources: {} });
  const handler = createToolSearchHttpHandler({ host, config: { mode: 'tools' }, allowedHosts: ['localhost', '127.0.0.1', '[::1]'], metrics, ...options });
  const listening = await listenOnLoopback(handler);
  cleanups.push(async () => {
    await listening.close();
    await host.close();
  });
  return new URL('/metrics', listening.url).href;
}
const scrape = (url: string, token?: string) => fetch(url, token === undefined ? {} : { headers: { Authorization: `Bearer ${token}` } });

describe('createToolSearchHttpHandler: /metrics', () => {
  it('takes the metrics token, and answers the clients\' token 401', async () => {
    const url = await serve({ token: 'client-token', metricsToken: 'metrics-token' });
    const withClientToken = await scrape(url, 'client-token');
    expect(withClientToken.status).toBe(401);
    expect(await withClientToken.text()).toContain("not the MCP clients' token");
    expect((await scrape(url)).status).toBe(401);
    const scraped = await scrape(url, 'metrics-token');
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('hrsecret');
  });

  it('answers 403 to everyone, the clients\' token included, when clients need a token and /metrics has none', async () => {
    const url = await serve({ token: 'client-token' });
    for (const token of ['client-token', undefined]) {
      const refused = await scrape(url, token);
      expect(refused.status, token).toBe(403);
      expect(await refused.text()).toContain("takes a token of its own (metricsToken), never the MCP clients' token");
    }
  });

  it('answers without a token when neither is set, and refuses a metricsToken equal to token', async () => {
    expect((await scrape(await serve({}))).status).toBe(200);
    const host = await createToolSearchHost({ sources: {} });
    cleanups.push(() => host.close());
    expect(() => createToolSearchHttpHandler({ host, config: { mode: 'tools' }, allowedHosts: ['localhost'], token: 'same', metricsToken: 'same' })).toThrow(/metricsToken equals token/);
  });
});
