// The console's HTTP side: the page at `/` and its JSON API under `/api/`, on loopback only, every API request
// behind a bearer token made for this run. The Host, Origin and token checks are the MCP endpoint's own
// (`checkHttpRequest`): a Host other than loopback is refused (DNS-rebinding protection).
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkHttpRequest } from '@tool-search/mcp-server';
import type { ConsoleApiError, ConsoleRoutes } from './console-api.js';
import type { ConsoleData } from './console-data.js';
import { CONSOLE_CSP, CONSOLE_PAGE } from './console-page.js';

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost'];
/** Longest search query the console takes. */
const MAX_QUERY = 2_000;

/** A listening console: its URL (with the token) and the way to stop it. */
export interface RunningConsole {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

/** Serves the console of `data` on 127.0.0.1:`port` (0: any free port). */
export async function serveConsole(data: ConsoleData, port: number): Promise<RunningConsole> {
  const token = randomBytes(24).toString('base64url');
  const server: Server = createServer((request, response) => {
    handle(data, token, request, response).catch((error: unknown) => send(response, 500, { error: error instanceof Error ? error.message : String(error) }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/?token=${token}`,
    port: bound,
    token,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handle(data: ConsoleData, token: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method !== 'GET') return send(response, 405, { error: 'the console takes GET only' });
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  // The page holds no data: only the API needs the token. Both need a loopback Host.
  const refused = checkHttpRequest(request, { allowedHosts: LOOPBACK_HOSTS, ...(url.pathname.startsWith('/api/') ? { token } : {}) });
  if (refused !== undefined) return send(response, refused.status, { error: refused.message });
  // The page itself holds no data; it reads the token from its URL and sends it with every API request.
  if (url.pathname === '/') {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': CONSOLE_CSP, 'Cache-Control': 'no-store' });
    response.end(CONSOLE_PAGE);
    return;
  }
  const route = Object.hasOwn(API_ROUTES, url.pathname) ? API_ROUTES[url.pathname as keyof ConsoleRoutes] : undefined;
  if (route === undefined) return send(response, 404, { error: `no ${url.pathname.slice(0, 100)} here` });
  const answer = await route(data, url);
  return 'refused' in answer ? send(response, 400, { error: answer.refused }) : send(response, 200, answer.body);
}

/** A route's answer: its body, or why the request was refused (HTTP 400). */
type RouteAnswer<Body> = { body: Body } | { refused: string };

/** Each API route: what it answers, typed by the route (the page reads the same `ConsoleRoutes`). */
const API_ROUTES: { [Path in keyof ConsoleRoutes]: (data: ConsoleData, url: URL) => RouteAnswer<ConsoleRoutes[Path]> | Promise<RouteAnswer<ConsoleRoutes[Path]>> } = {
  '/api/servers': (data) => ({ body: data.servers() }),
  '/api/catalog': (data) => ({ body: data.catalog() }),
  '/api/policy': (data) => ({ body: data.policy() }),
  '/api/activity': (data) => ({ body: data.activity() }),
  '/api/bytes': async (data) => ({ body: await data.bytes() }),
  '/api/search': async (data, url) => {
    const query = (url.searchParams.get('q') ?? '').slice(0, MAX_QUERY);
    const limitText = url.searchParams.get('limit');
    const limit = limitText === null ? undefined : Number(limitText);
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) return { refused: `limit ${String(limitText).slice(0, 20)}: expected a whole number of at least 1` };
    return { body: await data.search(query, limit) };
  },
};

function send(response: ServerResponse, status: number, body: ConsoleRoutes[keyof ConsoleRoutes] | ConsoleApiError): void {
  if (response.headersSent) return;
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(JSON.stringify(body));
}
