// What the HTTP endpoint does with a request before any MCP front sees it: reads its body as bounded JSON, and
// answers what it refuses with a JSON-RPC error the client can read (`id: null`).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { checkMessageBounds } from './check-message-bounds.js';

/** Answers with HTTP `status` and a JSON-RPC error (nothing when the headers went out already). */
export function answerHttpError(response: ServerResponse, status: number, code: number, message: string): void {
  if (response.headersSent) return;
  // A body too large is not read to its end: the connection cannot be reused.
  response.writeHead(status, { 'Content-Type': 'application/json', ...(status === 413 ? { Connection: 'close' } : {}) }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * The request body as JSON, at most `limit` bytes (past it the rest is drained, not kept). Its text is bounded
 * (`checkMessageBounds`) before it is parsed: neither the parse nor the SDK's schemas meet a wide or deep body.
 */
export function readJsonBody(request: IncomingMessage, limit: number, log: Logger): Promise<{ ok: true; value: unknown } | { ok: false; status: 400 | 413; code: number; message: string }> {
  const tooLarge = { ok: false as const, status: 413 as const, code: -32600, message: `Request too large: the limit is ${limit} bytes` };
  if (Number(request.headers['content-length'] ?? '0') > limit) {
    request.resume();
    return Promise.resolve(tooLarge);
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    request.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      over = true;
      chunks.length = 0;
      resolve(tooLarge);
    });
    request.on('error', () => resolve({ ok: false, status: 400, code: -32600, message: 'Bad Request: the body could not be read' }));
    request.on('end', () => {
      if (over) return;
      const text = Buffer.concat(chunks).toString('utf8');
      const outOfBounds = checkMessageBounds(text);
      if (outOfBounds !== undefined) {
        log.warn({ why: outOfBounds, bytes: size }, 'http request refused: out of bounds');
        return resolve({ ok: false, status: 400, code: -32600, message: `Invalid Request: ${outOfBounds}` });
      }
      try {
        resolve({ ok: true, value: JSON.parse(text) });
      } catch (error) {
        resolve({ ok: false, status: 400, code: -32700, message: `Parse error: the body is not JSON (${error instanceof Error ? error.message.slice(0, 200) : 'unreadable'})` });
      }
    });
  });
}
