import { describe, expect, it } from 'vitest';
import type { Telemetry } from '../telemetry.js';
import type { ToolCallOutcome } from '../tool-call-outcome.js';
import { createSessionEmitter } from './create-session-emitter.js';
import { createSessionCounters } from './session-counters-sink.js';
import { SESSION_EVENT_KINDS, type SessionEvent, type SessionEventKind, type SessionEventSink } from './session-event.js';
import { createSessionLogSink } from './session-log-sink.js';
import { createSessionOtelSink } from './session-otel-sink.js';

const ERROR: ToolCallOutcome & { status: 'error' } = { status: 'error', kind: 'call', toolCallId: 'c1', name: 'tool_call', code: 'unknown_tool', message: 'no such tool', content: 'no such tool', durationMs: 3 };
const OK: ToolCallOutcome = { status: 'ok', kind: 'call', toolCallId: 'c1', name: 'send', result: 'sent', untrusted: false, truncated: false, content: 'sent', durationMs: 5 };
const SUMMARY: Telemetry = {
  sessionId: 's1',
  mode: 'tools',
  requestedMode: 'tools',
  catalog: { size: 1, sources: { openclaw: 1, plugin: 0, mcp: 0, client: 0 }, clientTools: 0, visibleTools: 0, unavailableServers: [] },
  counts: { searches: 0, describes: 0, calls: 0, codeRuns: 0, hydrations: 0, nativeLoads: 0, blocked: 0, errors: 0 },
  calls: [],
};

/** One event of every kind: a kind added to `SessionEvent` without a case here does not compile. */
const ONE_OF_EACH: { [K in SessionEventKind]: SessionEvent & { kind: K } } = {
  search: { kind: 'search', toolCallId: 'c1', via: 'tool_search', searches: [{ request: { query: 'send mail' }, answer: { hits: [], evidence: 'weak', coverage: 0, strength: 0 } }] },
  describe: { kind: 'describe', toolCallId: 'c1', via: 'tool_describe', target: 'send', answer: { found: false, reason: 'unknown', message: 'not found', suggestions: [] } },
  'call.start': { kind: 'call.start', toolId: 'openclaw:core:send' },
  call: { kind: 'call', record: { toolCallId: 'c1', toolId: 'openclaw:core:send', source: 'openclaw', via: 'direct', status: 'ok', durationMs: 5 }, outcome: OK, decision: 'allowed' },
  'call.not_run': { kind: 'call.not_run', toolCallId: 'c1', via: 'tool_call', target: 'nope', outcome: ERROR },
  error: { kind: 'error' },
  hydration: { kind: 'hydration', toolCallId: 'c1', name: 'send', toolId: 'openclaw:core:send' },
  'native.load': { kind: 'native.load', toolCallId: 'c1', format: 'openai-responses', loadedIds: ['openclaw:core:send'], unknownIds: [] },
  'code.start': { kind: 'code.start' },
  surface: {
    kind: 'surface',
    mode: 'tools',
    rendered: { format: 'openai-responses', toolsDeclared: 3, schemasUpFront: 0, toolBytes: 10, instructionBytes: 5, totalBytes: 15, upFrontToolBytes: 10, deferredTools: 0 },
  },
  'session.end': { kind: 'session.end', summary: SUMMARY },
  browse: { kind: 'browse', fields: { toolCallId: 'c1', via: 'tool_search', servers: 2, omitted: 0 } },
  'native.unload': { kind: 'native.unload', fields: { toolCallId: 'c1', unloadedIds: [] } },
  'code.run': { kind: 'code.run', fields: { toolCallId: 'c1', ok: true } },
  fallback: { kind: 'fallback', fields: { mode: 'tools' } },
  likely: { kind: 'likely', fields: { toolIds: [] } },
  progress: { kind: 'progress', fields: { toolCallId: 'c1', progress: 1 } },
  'session.start': { kind: 'session.start', fields: { mode: 'tools' } },
  'mcp.log': { kind: 'mcp.log', fields: { server: 'wiki', level: 'info' } },
  'mcp.unavailable': { kind: 'mcp.unavailable', fields: { server: 'wiki' } },
  'mcp.available': { kind: 'mcp.available', fields: { server: 'wiki' } },
  'mcp.tools_changed': { kind: 'mcp.tools_changed', fields: { server: 'wiki', added: [], removed: [] } },
};

/** `sink` with each handler counted by kind; a kind the sink has no handler for is counted as missing. */
function watched(sink: SessionEventSink): { sink: SessionEventSink; reached: Map<string, number> } {
  const reached = new Map<string, number>();
  const wrapped = Object.fromEntries(
    SESSION_EVENT_KINDS.map((kind) => {
      const handler = (sink as unknown as Record<string, unknown>)[kind];
      return [kind, (event: SessionEvent) => {
        if (typeof handler !== 'function') throw new Error(`the sink has no handler for ${kind}`);
        reached.set(kind, (reached.get(kind) ?? 0) + 1);
        (handler as (event: SessionEvent) => void)(event);
      }];
    }),
  ) as unknown as SessionEventSink;
  return { sink: wrapped, reached };
}

function threeSinks() {
  const lines: Array<{ name: string; fields: Record<string, unknown> }> = [];
  const counters = createSessionCounters({ sessionId: 's1', decision: { mode: 'tools', requestedMode: 'tools' }, directReason: undefined, catalog: () => SUMMARY.catalog });
  const log = watched(createSessionLogSink((name, fields) => lines.push({ name, fields })));
  const count = watched(counters.sink);
  const otel = watched(createSessionOtelSink({}));
  return { lines, counters, sinks: { log, count, otel }, emit: createSessionEmitter([log.sink, count.sink, otel.sink]) };
}

describe('createSessionEmitter', () => {
  it('knows every kind of session event once', () => {
    expect(new Set(SESSION_EVENT_KINDS).size).toBe(SESSION_EVENT_KINDS.length);
    expect([...SESSION_EVENT_KINDS].sort()).toEqual(Object.keys(ONE_OF_EACH).sort());
  });

  it.each(SESSION_EVENT_KINDS)('hands a %s event, emitted once, to the session log, the counters and OpenTelemetry, once each', (kind) => {
    const { sinks, emit } = threeSinks();
    emit(ONE_OF_EACH[kind]);
    expect({ log: sinks.log.reached.get(kind), counters: sinks.count.reached.get(kind), otel: sinks.otel.reached.get(kind) }).toEqual({ log: 1, counters: 1, otel: 1 });
  });

  it('writes the session log lines of the format, one per search query, and counts as telemetry reads them', () => {
    const { lines, counters, emit } = threeSinks();
    for (const kind of SESSION_EVENT_KINDS) emit(ONE_OF_EACH[kind]);
    expect(lines.map((line) => line.name)).toEqual([
      'search',
      'describe',
      'call',
      'call',
      'hydration',
      'native.load',
      'surface',
      'session.summary',
      'browse',
      'native.unload',
      'code.run',
      'fallback',
      'likely',
      'progress',
      'session.start',
      'mcp.log',
      'mcp.unavailable',
      'mcp.available',
      'mcp.tools_changed',
    ]);
    expect(lines[0]?.fields).toEqual({ toolCallId: 'c1', via: 'tool_search', query: 'send mail', server: undefined, hitIds: [], evidence: 'weak' });
    expect(lines[3]?.fields).toEqual({ toolCallId: 'c1', via: 'tool_call', target: 'nope', decision: 'not-run', status: 'error', detail: 'unknown_tool', durationMs: 3 });
    expect(counters.telemetry().counts).toEqual({ searches: 1, describes: 1, calls: 1, codeRuns: 1, hydrations: 1, nativeLoads: 1, blocked: 0, errors: 2 });
    expect(counters.telemetry().surface?.totalBytes).toBe(15);
  });
});
