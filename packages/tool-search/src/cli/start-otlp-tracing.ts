// Traces of `serve` to an OTLP endpoint, configured the way every OpenTelemetry SDK is: by the standard
// environment variables. With `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) set and
// `OTEL_TRACES_EXPORTER` not `none`, a tracer provider is registered globally with a batch OTLP exporter
// (`http/protobuf` by default, `http/json` when `OTEL_EXPORTER_OTLP[_TRACES]_PROTOCOL` says so), the W3C trace
// context propagator and an async-hooks context manager; the exporters read the endpoint, headers and timeout
// variables themselves. Without the variables nothing is registered and the gateway's spans stay no-ops.
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace';
import { CliError } from './cli-error.js';

/** The registered provider, and the way to flush what is pending and unregister it. */
export interface OtlpTracing {
  /** Where spans go, for the start-up line. */
  readonly endpoint: string;
  readonly protocol: 'http/protobuf' | 'http/json';
  close(): Promise<void>;
}

const PROTOCOLS = ['http/protobuf', 'http/json'] as const;

/** Registers OTLP tracing when the environment asks for it; undefined when it does not. */
export async function startOtlpTracing(env: Readonly<Record<string, string | undefined>>, version: string): Promise<OtlpTracing | undefined> {
  const endpoint = env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] ?? env['OTEL_EXPORTER_OTLP_ENDPOINT'];
  if (endpoint === undefined || endpoint === '' || env['OTEL_TRACES_EXPORTER'] === 'none' || env['OTEL_SDK_DISABLED'] === 'true') return undefined;
  const named = env['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'] ?? env['OTEL_EXPORTER_OTLP_PROTOCOL'] ?? 'http/protobuf';
  const protocol = PROTOCOLS.find((candidate) => candidate === named);
  if (protocol === undefined) {
    throw new CliError('config', `OTEL_EXPORTER_OTLP_PROTOCOL=${named.slice(0, 40)}: tool-search exports traces over ${PROTOCOLS.join(' or ')} (grpc is not supported)`);
  }
  const exporter: SpanExporter =
    protocol === 'http/json'
      ? new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter()
      : new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter();
  const resource = resourceFromAttributes({ 'service.name': env['OTEL_SERVICE_NAME'] ?? 'tool-search', 'service.version': version });
  const provider = new TracerProvider({ resource, spanProcessors: [new BatchSpanProcessor({ exporter })] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return {
    endpoint,
    protocol,
    close: async () => {
      // What is still batched is sent before the process ends.
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}
