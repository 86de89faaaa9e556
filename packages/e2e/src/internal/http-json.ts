// The two small HTTP servers of this package (mock provider, gateway) listen, read and answer JSON (or SSE) the same way.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Reads a whole request body as UTF-8 text. */
export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** Answers with a JSON body and its exact length. */
export function sendJson(response: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

/** Starts an SSE answer; the returned function writes one event (`event: null` for data-only events). */
export function startSse(response: ServerResponse): (event: string | null, data: unknown) => void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  return (event, data) => {
    const payload = typeof data === 'string' ? data : JSON.stringify(data);
    response.write(`${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`);
  };
}

/**
 * Listens on 127.0.0.1 with an OS-chosen port. Returns the base URL for the official client
 * (`http://127.0.0.1:PORT/v1`) and a close that drops open connections first.
 */
export async function listenLocal(server: Server): Promise<{ baseURL: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
