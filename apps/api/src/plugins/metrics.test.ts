import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPayment, receiveTip } from '../test/sandbox-events.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../test/test-app.ts';

const TOKEN = 'metrics-token-for-the-test-0123456789abcdef';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The value of one series in a scrape, NaN when it is absent. */
const valueOf = (text: string, series: string) =>
  Number(new RegExp(`^${series.replace(/[{}()|.*+?^$[\]\\]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]);

describe('Prometheus metrics', () => {
  let t: TestApp;
  let metricsPort: number;
  beforeAll(async () => {
    metricsPort = await freePort();
    t = await createTestApp({ env: { METRICS_TOKEN: TOKEN, METRICS_PORT: String(metricsPort) } });
  });
  afterAll(() => t.close());

  const scrape = () => t.call({ method: 'GET', url: '/api/metrics', headers: { authorization: `Bearer ${TOKEN}` } });

  it('refuses /api/metrics without the operator token, in the error format', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const refused = await t.call({ method: 'GET', url: '/api/metrics', headers: authorization ? { authorization } : {} });
      expect(refused).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
      expect(JSON.stringify(refused.body)).not.toContain('tipcard_');
    }
  });

  it('after a paid tip, shows the payment counter, the webhook lag, the payments by state and the route latency', async () => {
    const { cardId } = await signUpWithCard(t);
    await receiveTip(t, cardId, 500);

    const scraped = await scrape();
    expect(scraped.status).toBe(200);
    expect(scraped.headers['content-type']).toContain('text/plain');
    const text = scraped.body as string;
    expect(valueOf(text, 'tipcard_payment_events_total{provider="sandbox",type="payment.succeeded",outcome="applied"}')).toBe(1);
    expect(valueOf(text, 'tipcard_webhook_lag_seconds_count{provider="sandbox"}')).toBe(1);
    expect(valueOf(text, 'tipcard_payments{status="succeeded"}')).toBe(1);
    expect(valueOf(text, 'tipcard_payments{status="refunded"}')).toBe(0);
    // By the route's pattern, never the URL with the card's id in it.
    const route = 'method="POST",route="/api/public/cards/:cardId/payments"';
    expect(valueOf(text, `tipcard_http_request_duration_seconds_count{${route}}`)).toBe(1);
    expect(valueOf(text, `tipcard_http_request_duration_seconds_bucket{le="+Inf",${route}}`)).toBe(1);
    expect(valueOf(text, `tipcard_http_requests_total{${route},status="201"}`)).toBe(1);
    expect(text).not.toContain(cardId);
    expect(valueOf(text, 'tipcard_ledger_invariant_problems')).toBe(0);
    expect(valueOf(text, 'tipcard_outbox_backlog')).toBeGreaterThanOrEqual(0);
    expect(valueOf(text, 'tipcard_payouts_in_flight')).toBe(0);
    expect(valueOf(text, 'tipcard_payouts_due')).toBe(0);
  });

  it('reads the database gauges once for a burst of scrapes (a short cache)', async () => {
    const { health } = t.app.services;
    const first = health.operationalFigures();
    expect(health.operationalFigures()).toBe(first);
    const { cardId } = await signUpWithCard(t);
    await openPayment(t, cardId, 300);
    const burst = await Promise.all([scrape(), scrape(), scrape()]);
    const pending = burst.map((scraped) => valueOf(scraped.body, 'tipcard_payments{status="pending"}'));
    expect(new Set(pending).size).toBe(1);
  });

  it('serves the same metrics, with the process figures, on METRICS_PORT', async () => {
    const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(valueOf(text, 'tipcard_payments{status="succeeded"}')).toBe(1);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/`)).status).toBe(404);
  });

  it('has no /api/metrics at all without METRICS_TOKEN', async () => {
    const plain = await createTestApp();
    try {
      expect(await plain.call({ method: 'GET', url: '/api/metrics' })).toMatchObject({
        status: 404,
        body: { code: 'not_found' },
      });
    } finally {
      await plain.close();
    }
  }, 120_000);
});
