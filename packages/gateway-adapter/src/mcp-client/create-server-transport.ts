import type { Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { McpConnectionCore } from './mcp-connection-core.js';
import { createSdkTransport } from './create-sdk-transport.js';
import { deliverInOrder } from './deliver-in-order.js';
import { labelRequestIds } from '../otel/gateway-spans.js';

/** The parts of a connection its transport needs. */
export type ServerTransportParts = Pick<McpConnectionCore, 'config' | 'auth' | 'stderr' | 'log' | 'redact'>;

/**
 * The SDK transport of the connection (`started`, a stdio server spawned ahead, or a new one), delivering messages
 * in order; a stdio server's stderr goes into the connection's tail.
 */
export function createServerTransport(core: ServerTransportParts, started?: Transport): Transport {
  const created = started ?? createSdkTransport(core.config, core.auth.provider, core.auth.fetch);
  deliverInOrder(created);
  labelRequestIds(created);
  if (created instanceof StdioClientTransport) {
    // Drain the server's stderr (an undrained pipe would block it) into the bounded tail and debug logs.
    created.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      core.stderr.push(text);
      core.log.debug({ stderr: core.redact(text.slice(0, 2_000)) }, 'mcp server stderr');
    });
  }
  return created;
}
