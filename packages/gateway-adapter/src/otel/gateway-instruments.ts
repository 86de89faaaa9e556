// The gateway's OpenTelemetry instruments, through `@opentelemetry/api` alone: with no SDK registered every one
// is a no-op; an SDK registered later is picked up by the next read (the meter is compared on each use). The
// names, attributes and the cardinality budget are in DESIGN.md ("Telemetry").
import { metrics, trace, type Counter, type Histogram, type Meter, type ObservableGauge, type Tracer } from '@opentelemetry/api';

/** The instrumentation scope of every span and instrument the gateway makes. */
export const INSTRUMENTATION_SCOPE = '@tool-search/gateway-adapter';

/** The bucket boundaries the MCP semantic conventions advise for `mcp.*.operation.duration`, in seconds. */
export const MCP_DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** Final call outcomes, the value set of `tool_search.call.outcome`. */
export type CallOutcomeKind = 'ok' | 'tool_error' | 'protocol_error' | 'timeout' | 'unavailable' | 'blocked' | 'denied';

/** What an observable gauge reads from a live host (hosts register while open). */
export interface ObservedHost {
  catalogSizes(): Record<string, number>;
  upstreams(): Array<{ server: string; up: boolean }>;
}

/** The gateway's instruments on the current global meter. */
export interface GatewayInstruments {
  meter: Meter;
  /** Final calls by outcome, route and tool source. */
  calls: Counter;
  /** Searches, and of those the weak and the empty ones. */
  searches: Counter;
  weakSearches: Counter;
  emptySearches: Counter;
  /** Tools described in a session and never called in it, counted when the session closes. */
  uncalledDescribes: Counter;
  /** 1-based rank of a called tool in the session's last search; 0 when it was not among the hits. */
  calledRank: Histogram;
  /** Bytes of a rendered surface, by mode. */
  surfaceBytes: Histogram;
  /** `mcp.client.operation.duration`, seconds. */
  clientDuration: Histogram;
  /** Upstream restarts and OAuth token refreshes, by server. */
  restarts: Counter;
  oauthRefreshes: Counter;
  catalogTools: ObservableGauge;
  upstreamUp: ObservableGauge;
}

const observed = new Set<ObservedHost>();
let cached: GatewayInstruments | undefined;

/** The tracer of the current global tracer provider (a proxy: it follows a provider registered later). */
export function gatewayTracer(): Tracer {
  return trace.getTracer(INSTRUMENTATION_SCOPE);
}

/** The instruments, made again when the global meter changed since they were last made. */
export function gatewayInstruments(): GatewayInstruments {
  const meter = metrics.getMeter(INSTRUMENTATION_SCOPE);
  if (cached?.meter === meter) return cached;
  const catalogTools = meter.createObservableGauge('tool_search.catalog.tools', { description: 'Tools catalogued, by source.', unit: '{tool}' });
  catalogTools.addCallback((result) => {
    for (const host of observed) for (const [source, count] of Object.entries(host.catalogSizes())) result.observe(count, { 'tool_search.tool.source': source });
  });
  const upstreamUp = meter.createObservableGauge('tool_search.upstream.up', { description: '1 when an upstream MCP server is ready, 0 otherwise.' });
  upstreamUp.addCallback((result) => {
    for (const host of observed) for (const { server, up } of host.upstreams()) result.observe(up ? 1 : 0, { 'tool_search.server': server });
  });
  cached = {
    meter,
    calls: meter.createCounter('tool_search.calls', { description: 'Final tool calls, by outcome.', unit: '{call}' }),
    searches: meter.createCounter('tool_search.searches', { description: 'Searches answered.', unit: '{search}' }),
    weakSearches: meter.createCounter('tool_search.searches.weak', { description: 'Searches whose evidence was weak (answered with the server map).', unit: '{search}' }),
    emptySearches: meter.createCounter('tool_search.searches.empty', { description: 'Searches with no hit.', unit: '{search}' }),
    uncalledDescribes: meter.createCounter('tool_search.describes.uncalled', { description: 'Tools described and never called in their session.', unit: '{tool}' }),
    calledRank: meter.createHistogram('tool_search.call.search_rank', {
      description: "1-based rank of a called tool among the session's last search hits (0: not among them).",
      advice: { explicitBucketBoundaries: [0, 1, 2, 3, 5, 10] },
    }),
    surfaceBytes: meter.createHistogram('tool_search.surface.size', {
      description: 'Bytes of a rendered tool surface.',
      unit: 'By',
      advice: { explicitBucketBoundaries: [1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000] },
    }),
    clientDuration: meter.createHistogram('mcp.client.operation.duration', {
      description: 'Duration of an MCP request as the gateway sent it, until its answer.',
      unit: 's',
      advice: { explicitBucketBoundaries: MCP_DURATION_BUCKETS },
    }),
    restarts: meter.createCounter('tool_search.upstream.restarts', { description: 'Restarts of an upstream MCP server.', unit: '{restart}' }),
    oauthRefreshes: meter.createCounter('tool_search.oauth.refreshes', { description: 'OAuth token refreshes of an upstream MCP server.', unit: '{refresh}' }),
    catalogTools,
    upstreamUp,
  };
  return cached;
}

/**
 * Lets the gauges read `host` until the returned function is called (when the host closes); makes the
 * instruments now, so a scrape right after the host started already sees its catalog and servers.
 */
export function observeHost(host: ObservedHost): () => void {
  observed.add(host);
  gatewayInstruments();
  return () => observed.delete(host);
}
