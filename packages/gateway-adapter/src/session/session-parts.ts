// Everything one session is made of, built once when it opens; the session's methods read these parts.
import type { SurfaceFormat } from '@tool-search/modes';
import type { Runner } from '@tool-search/sandbox-runner';
import type { Logger } from 'pino';
import type { ToolSearchModeDecision } from '../decide-tool-search-mode.js';
import type { SearchLimits } from '../tool-search-session.js';
import type { AllowedTools } from './allowed-tools.js';
import type { CallPipeline } from './call-pipeline.js';
import type { CatalogReads } from './catalog-reads.js';
import type { ControlRoute } from './control-routes.js';
import type { SessionSurface } from './session-surface.js';
import type { SessionCounters } from './session-counters-sink.js';
import type { SessionEmit } from './session-event.js';

/** Everything one session is made of, built once at open. */
export interface SessionParts {
  sessionId: string;
  decision: ToolSearchModeDecision;
  tools: AllowedTools;
  /** The session's counters (what `telemetry()` answers). */
  counters: SessionCounters;
  pipeline: CallPipeline;
  routes: ReadonlyMap<string, ControlRoute>;
  reads: CatalogReads;
  searchLimits: SearchLimits;
  surface: SessionSurface;
  /** Emits each session event once, to the session log, the counters and OpenTelemetry. */
  emit: SessionEmit;
  abort: AbortController;
  runner: Runner | undefined;
  log: Logger;
  /** Formats already warned about for a surface over the provider's tool limit. */
  warnedFormats: Set<string>;
  /** Formats whose surface fell back to another mode (logged once each). */
  fellBack: Set<string>;
  /** Native mode: the ids each format's searches have loaded so far (not loaded again). */
  loaded: Map<SurfaceFormat, Set<string>>;
  /** Resolves when the host's first start of its servers is over (at once for a session opened after it). */
  started: Promise<void>;
  /** Embeds search queries before a `tool_search` runs them (set when the host has an embedder). */
  embedQueries: ((queries: string[]) => Promise<void>) | undefined;
}
