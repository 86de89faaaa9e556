// One stdio connection of either protocol era. The 2025 front is opened as before and serves the connection unless
// the client's first message is a 2026-07-28 one (`server/discover`, or a request whose `_meta` claims a protocol
// version): then the 2025 front is closed and the SDK v2 `serveStdio` serves the connection (strict, from the same
// stateless server factory as the HTTP front). Everything after the first message passes straight through.
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import pino, { type Logger } from 'pino';
import type { GuardedStdioTransport } from './create-guarded-stdio-transport.js';
import type { CreateToolSearchMcpServerOptions, ToolSearchMcpServer } from './create-tool-search-mcp-server.js';

/** The `_meta` key a 2026-07-28 request claims its protocol version under. */
const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';

/** A stdio connection served by era. */
export interface StdioByEra {
  /** The era the client's first message chose (undefined before it). */
  era(): 'legacy' | 'modern' | undefined;
  /** Closes whichever front serves the connection, and the transport. */
  close(): Promise<void>;
}

/**
 * Serves the connection (its `modernSide`) statelessly with the SDK v2 `serveStdio`, from the same server factory as
 * the HTTP front's 2026-07-28 requests.
 */
async function serveModernStdio(modern: Omit<CreateToolSearchMcpServerOptions, 'sessionId'>, modernSide: Transport, log: Logger): Promise<{ close(): Promise<void> }> {
  const [{ serveStdio }, { createModernServerFactory }] = await Promise.all([import('@modelcontextprotocol/server/stdio'), import('./internal/create-modern-front.js')]);
  const { factory, changes } = createModernServerFactory(modern, log);
  // The connection's instance tells its list changes; serveStdio delivers them to the connection's listen
  // subscriptions (an instance made for a discarded probe stops hearing them when the next one is made).
  let stopTelling = () => undefined as void;
  const tellingFactory = () => {
    const server = factory();
    stopTelling();
    const send = { tools: () => server.sendToolListChanged(), resources: () => server.sendResourceListChanged(), prompts: () => server.sendPromptListChanged() };
    stopTelling = changes.subscribe((kind) => void send[kind]().catch(() => undefined));
    return server;
  };
  const handle = serveStdio(tellingFactory, { legacy: 'reject', transport: modernSide, onerror: (error) => log.warn({ err: error.message.slice(0, 300) }, 'modern stdio request failed') });
  return {
    async close() {
      stopTelling();
      await changes.close();
      await handle.close();
    },
  };
}

/** True for a 2026-07-28 opening: `server/discover`, or any request whose `_meta` claims a protocol version. */
export function isModernOpening(message: JSONRPCMessage): boolean {
  if (!('method' in message)) return false;
  if (message.method === 'server/discover') return true;
  const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  return typeof meta?.[PROTOCOL_VERSION_META_KEY] === 'string';
}

export async function serveStdioByEra(options: {
  /** The 2025 front, opened for this connection. */
  front: ToolSearchMcpServer;
  transport: GuardedStdioTransport;
  /** The session options a 2026-07-28 connection's requests are answered with. */
  modern: Omit<CreateToolSearchMcpServerOptions, 'sessionId'>;
  logger?: Logger;
}): Promise<StdioByEra> {
  const { front, transport } = options;
  const log = (options.logger ?? pino({ level: 'silent' })).child({ pkg: 'mcp-server', component: 'stdio' });
  let era: 'legacy' | 'modern' | undefined;
  let modernHandle: { close(): Promise<void> } | undefined;
  const pending: JSONRPCMessage[] = [];

  const legacySide: Transport = {
    start: () => transport.start(),
    send: (message, sendOptions) => transport.send(message, sendOptions),
    // Closing the 2025 front on a switch to the modern era must leave the connection open.
    close: async () => {
      if (era !== 'modern') await transport.close();
    },
  };
  const modernSide: Transport = {
    start: async () => {
      for (const message of pending.splice(0)) modernSide.onmessage?.(message);
    },
    send: (message, sendOptions) => transport.send(message, sendOptions),
    close: () => transport.close(),
  };

  async function switchToModern(): Promise<void> {
    log.info('stdio client opened on protocol revision 2026-07-28: serving it statelessly');
    await front.close();
    modernHandle = await serveModernStdio(options.modern, modernSide, log);
  }

  transport.onmessage = (message, extra) => {
    if (era === undefined) {
      era = isModernOpening(message) ? 'modern' : 'legacy';
      if (era === 'modern') {
        pending.push(message);
        void switchToModern().catch((error: unknown) => log.error({ err: error instanceof Error ? error.message : String(error) }, 'switching stdio to 2026-07-28 failed'));
        return;
      }
    }
    if (era === 'legacy') legacySide.onmessage?.(message, extra);
    else if (modernSide.onmessage === undefined) pending.push(message);
    else modernSide.onmessage(message, extra);
  };
  transport.onclose = () => {
    legacySide.onclose?.();
    modernSide.onclose?.();
  };
  transport.onerror = (error) => {
    legacySide.onerror?.(error);
    modernSide.onerror?.(error);
  };
  await front.server.connect(legacySide);
  return {
    era: () => era,
    async close() {
      if (modernHandle !== undefined) await modernHandle.close();
      await front.close();
    },
  };
}
