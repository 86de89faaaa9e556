// The metrics of `serve --http`: an OpenTelemetry meter provider registered as the global one, read by the
// Prometheus exporter on demand (no listener of its own: `/metrics` is a route of the MCP endpoint, behind its Host
// checks and a token of its own, never the clients'). The gateway and the front record through `@opentelemetry/api`,
// so their instruments land here.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { metrics } from '@opentelemetry/api';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider } from '@opentelemetry/sdk-metrics';

/** The registered provider's Prometheus view: a request handler for `/metrics`, and the way to unregister. */
export interface PrometheusMetrics {
  handle(request: IncomingMessage, response: ServerResponse): void;
  close(): Promise<void>;
}

/** Registers a global meter provider read by a Prometheus exporter (call before the host starts); `version` is the service's. */
export function startPrometheusMetrics(version: string): PrometheusMetrics {
  const exporter = new PrometheusExporter({ preventServerStart: true });
  const resource = resourceFromAttributes({ 'service.name': 'tool-search', 'service.version': version });
  const provider = new MeterProvider({ readers: [exporter], resource });
  metrics.setGlobalMeterProvider(provider);
  return {
    handle: (request, response) => exporter.getMetricsRequestHandler(request, response),
    close: async () => {
      metrics.disable();
      await provider.shutdown();
    },
  };
}
