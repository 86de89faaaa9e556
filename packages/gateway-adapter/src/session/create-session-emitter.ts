// One emitter per session: each event is emitted once and handed to every sink (the session log, the counters,
// OpenTelemetry), in that order. The dispatcher shape of vercel/ai's telemetry: one object per sink with a
// handler per event, fanned out by one function.
import type { SessionEmit, SessionEvent, SessionEventSink } from './session-event.js';

/** The emitter over `sinks`. */
export function createSessionEmitter(sinks: readonly SessionEventSink[]): SessionEmit {
  return (event) => {
    for (const sink of sinks) (sink[event.kind] as (event: SessionEvent) => void)(event);
  };
}
