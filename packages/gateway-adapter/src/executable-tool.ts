import type { JsonSchema } from '@tool-search/catalog';
import type { Logger } from 'pino';

/** What a tool's `execute` receives besides its arguments. */
export interface ToolExecutionContext {
  /** The catalog id of the tool being run. */
  toolId: string;
  /** The provider's tool call id this execution belongs to. */
  toolCallId: string;
  /** Aborted when the call times out or the session closes. */
  signal: AbortSignal;
  logger: Logger;
}

/** A tool the gateway executes itself: an OpenClaw core tool or a plugin tool. */
export interface ExecutableTool {
  name: string;
  description?: string;
  inputSchema?: JsonSchema;
  outputSchema?: JsonSchema;
  /** Eligible only when the run's context says the sender is the owner. */
  ownerOnly?: boolean;
  /** The owner segment of the id; defaults to `core` for OpenClaw tools and the plugin's name for plugins. */
  owner?: string;
  tags?: string[];
  execute(args: Record<string, unknown>, context: ToolExecutionContext): unknown;
}

/** A tool declared with the run and executed by the caller: calls come back as `{ status: 'client' }` outcomes. */
export interface ClientTool {
  name: string;
  description?: string;
  inputSchema?: JsonSchema;
  /** The owner segment of the id; defaults to `client`. */
  owner?: string;
  ownerOnly?: boolean;
}
