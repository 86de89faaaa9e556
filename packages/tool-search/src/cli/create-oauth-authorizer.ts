// OAuth for the command line: when an HTTP server needs the user to authorize, the URL is printed on stderr and a
// listener on the redirect URL's port waits for the browser to come back with the code (5 minutes at most).
import { createServer, type Server } from 'node:http';
import { DEFAULT_OAUTH_REDIRECT_URL, type McpOAuthOptions } from '@tool-search/gateway-adapter';
import type { CliOutput } from './cli-io.js';

const AUTHORIZE_TIMEOUT_MS = 5 * 60_000;

export function createOAuthAuthorizer(options: { output: CliOutput; redirectUrl?: string | undefined; timeoutMs?: number | undefined }): {
  authorize: NonNullable<McpOAuthOptions['authorize']>;
  close(): Promise<void>;
} {
  const redirect = new URL(options.redirectUrl ?? DEFAULT_OAUTH_REDIRECT_URL);
  const listeners = new Set<Server>();
  return {
    authorize: ({ server, authorizationUrl }) =>
      // The redirect's whole query (code, state, iss): the client checks the issuer (RFC 9207) before the exchange.
      new Promise<URLSearchParams | undefined>((resolve) => {
        const listener = createServer((request, response) => {
          const url = new URL(request.url ?? '/', redirect);
          if (url.pathname !== redirect.pathname) return void response.writeHead(404).end();
          const code = url.searchParams.get('code') ?? undefined;
          response.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' }).end(code === undefined ? 'Authorization failed: no code came back.' : `tool-search: "${server}" is authorized. You can close this tab.`);
          finish(code === undefined ? undefined : url.searchParams);
        });
        const timer = setTimeout(() => finish(undefined), options.timeoutMs ?? AUTHORIZE_TIMEOUT_MS);
        timer.unref();
        function finish(query: URLSearchParams | undefined) {
          clearTimeout(timer);
          listeners.delete(listener);
          listener.close();
          resolve(query);
        }
        listener.on('error', (error) => {
          options.output.progress(`  ✗ ${server}: cannot listen for the OAuth redirect on ${redirect.host}: ${error.message}`);
          finish(undefined);
        });
        listeners.add(listener);
        listener.listen(Number(redirect.port || 80), redirect.hostname, () => {
          options.output.progress(`MCP server "${server}" needs authorization. Open this URL in a browser:\n  ${authorizationUrl.toString()}`);
        });
      }),
    async close() {
      for (const listener of listeners) listener.close();
      listeners.clear();
    },
  };
}
