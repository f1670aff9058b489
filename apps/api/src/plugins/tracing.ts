import { context, SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

const spans = new WeakMap<FastifyRequest, Span>();
const w3c = new W3CTraceContextPropagator();

/**
 * OpenTelemetry traces (decision 0033), loaded by `app.ts` only when OTEL_EXPORTER_OTLP_ENDPOINT is set: a server span
 * per request, named by method and route pattern, continuing the caller's `traceparent`, sent in batches over OTLP/HTTP
 * (JSON) to `<endpoint>/v1/traces`. A provider of this app's own rather than the global one, so nothing else in the
 * process is traced by surprise; the span carries the route pattern and path, never the query string, headers or body.
 */
export const tracingPlugin = fp(async (app: FastifyInstance, options: { endpoint: string; serviceName: string }) => {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/$/, '')}/v1/traces` }))],
  });
  const tracer = provider.getTracer('tipcard');
  // Spans still in the batch are sent before the process ends.
  app.addHook('onClose', () => provider.shutdown());

  app.addHook('onRequest', async (request) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const parent = w3c.extract(context.active(), request.headers, {
      get: (headers, key) => headers[key],
      keys: (headers) => Object.keys(headers),
    });
    spans.set(
      request,
      tracer.startSpan(
        `${request.method} ${route}`,
        {
          kind: SpanKind.SERVER,
          attributes: {
            'http.request.method': request.method,
            'http.route': route,
            'url.path': request.url.split('?')[0] ?? '',
          },
        },
        parent,
      ),
    );
  });
  app.addHook('onResponse', async (request, reply) => {
    const span = spans.get(request);
    if (!span) return;
    span.setAttribute('http.response.status_code', reply.statusCode);
    if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
});
