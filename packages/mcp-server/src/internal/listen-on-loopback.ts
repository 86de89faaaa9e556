// For the HTTP handler's tests: a handler on a real Node HTTP server on a free loopback port. Not part of the
// package's contract (nothing in src/index.ts reaches it).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A listening server: its `/mcp` URL and port, and `close()`, which closes the handler first, then the server. */
export interface LoopbackListener {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Serves `handler` on 127.0.0.1 at a free port. `closeAllConnections` drops open sockets on close (a listen stream
 * the client aborted is otherwise kept by the client's keep-alive).
 */
export async function listenOnLoopback(
  handler: { handle(request: IncomingMessage, response: ServerResponse): Promise<void>; close(): Promise<unknown> },
  options: { closeAllConnections?: boolean } = {},
): Promise<LoopbackListener> {
  const server = createServer((request, response) => void handler.handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    async close() {
      await handler.close();
      if (options.closeAllConnections === true) server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
