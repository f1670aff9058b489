import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test/test-app.ts';

interface ReceivedSpan {
  name: string;
  kind: number;
  traceId: string;
  parentSpanId?: string;
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}

/** A local OTLP/HTTP collector: keeps the spans of every JSON export posted to /v1/traces. */
describe('OpenTelemetry traces', () => {
  let collector: Server;
  let endpoint: string;
  const received: { path: string; spans: ReceivedSpan[]; service: string | undefined }[] = [];

  beforeAll(async () => {
    collector = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const exported = JSON.parse(body) as {
          resourceSpans: {
            resource: { attributes: { key: string; value: { stringValue?: string } }[] };
            scopeSpans: { spans: ReceivedSpan[] }[];
          }[];
        };
        for (const resource of exported.resourceSpans) {
          received.push({
            path: request.url ?? '',
            service: resource.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue,
            spans: resource.scopeSpans.flatMap((scope) => scope.spans),
          });
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(collector.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise((resolve) => collector.close(resolve)));

  it("exports a server span per request, named by route pattern, continuing the caller's trace", async () => {
    const t = await createTestApp({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: 'tipcard-test' } });
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    try {
      expect(
        (await t.call({ method: 'GET', url: '/api/health', headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } }))
          .status,
      ).toBe(200);
      expect(
        (await t.call({ method: 'GET', url: '/api/public/cards/00000000-0000-4000-8000-000000000000?x=secret' })).status,
      ).toBe(404);
    } finally {
      // Closing the app flushes the batch.
      await t.close();
    }
    const spans = received.flatMap((batch) => batch.spans);
    expect(received.every((batch) => batch.path === '/v1/traces' && batch.service === 'tipcard-test')).toBe(true);
    const health = spans.find((span) => span.name === 'GET /api/health');
    expect(health).toMatchObject({ kind: 2, traceId, parentSpanId: '00f067aa0ba902b7' });
    const attribute = (span: ReceivedSpan | undefined, key: string) => span?.attributes.find((a) => a.key === key)?.value;
    expect(attribute(health, 'http.route')).toEqual({ stringValue: '/api/health' });
    expect(Number(attribute(health, 'http.response.status_code')?.intValue)).toBe(200);
    const card = spans.find((span) => span.name.startsWith('GET /api/public/cards/'));
    expect(card?.name).toMatch(/^GET \/api\/public\/cards\/:\w+$/);
    expect(JSON.stringify(spans)).not.toContain('secret');
  }, 120_000);
});
