// Server log lines: each goes to the host log, and to the sessions with a call to that server in flight.
import type { Logger } from 'pino';
import type { McpLogEntry } from '../mcp-client/index.js';

/** Hands each server log entry to the host log, and to whoever listens for that server now. */
export class ServerLogRouter {
  private readonly listeners = new Map<string, Set<(entry: McpLogEntry) => void>>();
  constructor(private readonly log: Logger) {}

  listen(server: string, listener: (entry: McpLogEntry) => void): () => void {
    const set = this.listeners.get(server) ?? new Set();
    this.listeners.set(server, set);
    set.add(listener);
    return () => set.delete(listener);
  }

  deliver(entry: McpLogEntry): void {
    const level = entry.level === 'debug' ? 'debug' : entry.level === 'info' || entry.level === 'notice' ? 'info' : 'warn';
    this.log[level]({ server: entry.server, serverLevel: entry.level, logger: entry.logger, message: entry.message.slice(0, 500) }, 'mcp server log');
    for (const listener of this.listeners.get(entry.server) ?? []) listener(entry);
  }
}
