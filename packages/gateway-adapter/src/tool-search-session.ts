// The public shape of one run's session, however it was opened (`host.openSession` or `createToolSearchSession`).
import type { ToolDescriptor } from '@tool-search/catalog';
import type { ModelTool, ProviderToolsFor, Surface, SurfaceFormat } from '@tool-search/modes';
import type { ToolSearchModeDecision } from './decide-tool-search-mode.js';
import type { Telemetry } from './telemetry.js';
import type { ToolCallOutcome } from './tool-call-outcome.js';

/** One tool call from the model. `args` may be an object or its JSON text. */
export interface ToolCallRequest {
  name: string;
  args: unknown;
  toolCallId: string;
}

/** Progress an MCP tool reported for a call (`notifications/progress`). */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** Per-call options of `session.execute`. */
export interface ExecuteOptions {
  /** Cancels the call (an MCP server is sent `notifications/cancelled`); the outcome is an error. */
  signal?: AbortSignal;
  /** Receives progress the tool reports while it runs. */
  onProgress?: (progress: ToolProgress) => void;
}

/** What to send the model in one provider format (`tools` has that format's exact type). */
export interface RenderedSurface<F extends SurfaceFormat = SurfaceFormat> {
  mode: Surface['mode'];
  /** The tools in the provider's own shape (OpenAI Chat, OpenAI Responses or Anthropic). */
  tools: ProviderToolsFor<F>;
  instructions: string;
}

/**
 * The surface before any provider format: each tool's name, description, JSON Schema and `kind` (`control`,
 * `pinned`, `client`, `catalog`), for adapters that declare tools in a framework's own shape.
 */
export interface ModelSurface {
  mode: Surface['mode'];
  tools: ModelTool[];
  instructions: string;
}

/** One run's tool-search session: the surface to send, and the executor for the model's tool calls. */
export interface ToolSearchSession {
  readonly sessionId: string;
  /** The mode decision (and fallback reason) made at creation. */
  readonly decision: ToolSearchModeDecision;
  surface<F extends SurfaceFormat>(format: F): RenderedSurface<F>;
  /** The provider-neutral surface (recorded in telemetry like `surface`, with `format: 'model'`). */
  modelSurface(): ModelSurface;
  execute(request: ToolCallRequest, options?: ExecuteOptions): Promise<ToolCallOutcome>;
  /**
   * The catalog entry behind an id (title, annotations, schemas) when this session's policy view holds it now;
   * undefined for a denied, unknown or unavailable tool, exactly alike. Recorded nowhere (not a model call).
   */
  tool(id: string): ToolDescriptor | undefined;
  telemetry(): Telemetry;
  close(): Promise<void>;
}
