import type { ToolSource } from '@tool-search/catalog';
import type { TOOL_CALL } from '@tool-search/modes';
import type { ToolSearchMode } from './resolve-tool-search-config.js';
import type { ToolCallOutcome } from './tool-call-outcome.js';

/** How a final tool call was reached. */
export type CallRoute = 'code' | typeof TOOL_CALL | 'direct' | 'hydrated' | 'client' | 'native';

/** One final (real) tool call of a session. */
export interface FinalCallRecord {
  toolCallId: string;
  toolId: string;
  source: ToolSource;
  via: CallRoute;
  status: ToolCallOutcome['status'];
  /** The error code or block layer, when not ok. */
  detail?: string;
  durationMs: number;
}

/** What the model was sent up front, for the last surface rendered. */
export interface SurfaceTelemetry {
  format: string;
  /** Tools declared to the model (control, visible, client and, in direct mode, every catalog tool). */
  toolsDeclared: number;
  /** Declared tools whose full schema reaches the model up front (not the control tools, not deferred ones). */
  schemasUpFront: number;
  toolBytes: number;
  instructionBytes: number;
  totalBytes: number;
  /** Bytes of the tools that reach the model's context up front (in native mode, deferred definitions do not). */
  upFrontToolBytes: number;
  /** Tools declared with deferred loading (native mode). */
  deferredTools: number;
  /** Set when more tools are declared than the provider documents for one request (OpenAI: 128). */
  providerMaxTools?: number;
  /** Set when this format could not be served in the session's mode: the mode rendered, and why. */
  renderedMode?: string;
  fallbackReason?: string;
}

/** Per-session telemetry: what was rendered, what was asked, and every final call. */
export interface Telemetry {
  sessionId: string;
  mode: ToolSearchMode;
  requestedMode: ToolSearchMode;
  fallbackReason?: string;
  directReason?: string;
  /** What `auto` measured and chose. */
  autoReason?: string;
  catalog: {
    /** Catalogued (policy-allowed, searchable) tools right now. */
    size: number;
    sources: Record<ToolSource, number>;
    /** Client tools allowed for this run (always directly visible, not catalogued). */
    clientTools: number;
    /** Pinned tools kept directly visible. */
    visibleTools: number;
    /** MCP servers whose tools are currently unavailable. */
    unavailableServers: string[];
  };
  surface?: SurfaceTelemetry;
  /** `nativeLoads`: tools loaded into the model's context by native searches (native mode). */
  counts: { searches: number; describes: number; calls: number; codeRuns: number; hydrations: number; nativeLoads: number; blocked: number; errors: number };
  calls: FinalCallRecord[];
}
