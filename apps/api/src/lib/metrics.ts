import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the gauges read from the database at scrape time (health module's `operationalFigures`). */
export interface OperationalFigures {
  paymentsByStatus: Record<string, number>;
  payoutsInFlight: { count: number; amountCents: number; due: number; oldestAgeSeconds: number };
  outbox: { backlog: number; oldestAgeSeconds: number };
  /** The last ledger invariant check: problems found and when it ran; null before the first one ends. */
  ledger: { problems: number; checkedAtSeconds: number } | null;
}

const PAYMENT_STATES = ['pending', 'succeeded', 'failed', 'canceled', 'refunded'] as const;

/**
 * One process's Prometheus metrics (decision 0033): a registry of its own per app, so that test apps sharing a process
 * never mix their counts. Counters and histograms are fed where things happen; gauges of the database are read on
 * scrape through `figures`, which the caller caches.
 */
export function createMetrics() {
  const registry = new Registry();
  let figures: (() => Promise<OperationalFigures>) | undefined;
  // A database that does not answer leaves these gauges out of the scrape rather than failing it whole.
  const read = async () => figures?.().catch(() => undefined);

  const httpRequests = new Counter({
    name: 'tipcard_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: 'tipcard_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  // `job_name`, not `job`: Prometheus gives every scraped series a `job` label of its own (the scrape job).
  const jobRuns = new Counter({
    name: 'tipcard_job_runs_total',
    help: 'Ticks in which a job ran (each does due items until none is left or its batch is done)',
    labelNames: ['job_name'] as const,
    registers: [registry],
  });
  const jobItems = new Counter({
    name: 'tipcard_job_items_total',
    help: 'Due items a job did',
    labelNames: ['job_name'] as const,
    registers: [registry],
  });
  const jobFailures = new Counter({
    name: 'tipcard_job_failures_total',
    help: 'Ticks in which a job failed (it runs again next tick)',
    labelNames: ['job_name'] as const,
    registers: [registry],
  });
  const jobDuration = new Histogram({
    name: 'tipcard_job_duration_seconds',
    help: "Time one job's share of a tick took",
    labelNames: ['job_name'] as const,
    buckets: [0.001, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120],
    registers: [registry],
  });
  // Monotonic time: these measure the process, whatever the application's clock says.
  const caughtUpAt = new Map<string, number>();
  const startedAt = performance.now();
  new Gauge({
    name: 'tipcard_job_lag_seconds',
    help: 'Seconds since a job last found nothing due (caught up); grows while it fails or cannot keep up',
    labelNames: ['job_name'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const now = performance.now();
      for (const [job, at] of caughtUpAt) this.set({ job_name: job }, (now - at) / 1000);
    },
  });

  const paymentEvents = new Counter({
    name: 'tipcard_payment_events_total',
    help: 'Provider events taken by this instance, by provider, event type and outcome (applied, ignored, mismatch, duplicate)',
    labelNames: ['provider', 'type', 'outcome'] as const,
    registers: [registry],
  });
  const webhookLag = new Histogram({
    name: 'tipcard_webhook_lag_seconds',
    help: 'From when the provider created an event to when it was applied to our books',
    labelNames: ['provider'] as const,
    buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600],
    registers: [registry],
  });

  new Gauge({
    name: 'tipcard_payments',
    help: 'Payments in each state',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const current = await read();
      if (!current) return;
      for (const status of new Set([...PAYMENT_STATES, ...Object.keys(current.paymentsByStatus)])) {
        this.set({ status }, current.paymentsByStatus[status] ?? 0);
      }
    },
  });
  /** A gauge of one figure read from the database at scrape; left out when the figure is not there. */
  const databaseGauge = (name: string, help: string, pick: (current: OperationalFigures) => number | undefined) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const current = await read();
        const value = current && pick(current);
        if (value !== undefined) this.set(value);
      },
    });
  databaseGauge('tipcard_payouts_in_flight', 'Payouts confirmed and not yet paid or returned', (f) => f.payoutsInFlight.count);
  databaseGauge('tipcard_payouts_in_flight_cents', 'Their sum, in cents', (f) => f.payoutsInFlight.amountCents);
  databaseGauge(
    'tipcard_payouts_due',
    'Payouts in flight whose next step is due now (the worker should be on it)',
    (f) => f.payoutsInFlight.due,
  );
  databaseGauge(
    'tipcard_payouts_oldest_in_flight_age_seconds',
    'Seconds since the oldest payout in flight was confirmed; 0 when none is',
    (f) => f.payoutsInFlight.oldestAgeSeconds,
  );
  databaseGauge('tipcard_outbox_backlog', 'SMS and e-mails waiting to be sent (pending or being sent)', (f) => f.outbox.backlog);
  databaseGauge(
    'tipcard_outbox_oldest_age_seconds',
    'Seconds since the oldest message still waiting was written; 0 when none is',
    (f) => f.outbox.oldestAgeSeconds,
  );
  databaseGauge(
    'tipcard_ledger_invariant_problems',
    'Problems the last ledger invariant check found (0 is healthy)',
    (f) => f.ledger?.problems,
  );
  databaseGauge(
    'tipcard_ledger_checked_timestamp_seconds',
    'When the last ledger invariant check ran',
    (f) => f.ledger?.checkedAtSeconds,
  );

  return {
    registry,
    /** Where the database gauges come from; set once the services exist. */
    readFiguresWith(source: () => Promise<OperationalFigures>) {
      figures = source;
    },
    /**
     * With a read replica (decision 0038): how far behind the router last found it, read at scrape; +Inf while it
     * does not answer (every read goes to the primary then). Without a replica there is no such gauge.
     */
    readReplicaStalenessWith(source: () => Promise<number | undefined>) {
      new Gauge({
        name: 'tipcard_replica_staleness_seconds',
        help: 'How far behind the primary the read replica is, as the read router measures it (WAL position sampled)',
        registers: [registry],
        async collect() {
          const ms = await source().catch(() => undefined);
          this.set(ms === undefined ? Number.POSITIVE_INFINITY : ms / 1000);
        },
      });
    },
    /** The process's CPU, memory, event-loop lag and GC figures: only where metrics are served (they keep timers). */
    collectProcessMetrics() {
      collectDefaultMetrics({ register: registry });
    },
    request(method: string, route: string, status: number, seconds: number) {
      httpRequests.inc({ method, route, status: String(status) });
      httpDuration.observe({ method, route }, seconds);
    },
    job: {
      ran(job: string, items: number, seconds: number, caughtUp: boolean) {
        const labels = { job_name: job };
        jobRuns.inc(labels);
        if (items > 0) jobItems.inc(labels, items);
        jobDuration.observe(labels, seconds);
        if (caughtUp) caughtUpAt.set(job, performance.now());
        else if (!caughtUpAt.has(job)) caughtUpAt.set(job, startedAt);
      },
      failed(job: string, items: number, seconds: number) {
        const labels = { job_name: job };
        jobRuns.inc(labels);
        jobFailures.inc(labels);
        if (items > 0) jobItems.inc(labels, items);
        jobDuration.observe(labels, seconds);
        if (!caughtUpAt.has(job)) caughtUpAt.set(job, startedAt);
      },
    },
    paymentEvent(provider: string, type: string, outcome: string, lagSeconds: number | undefined) {
      paymentEvents.inc({ provider, type, outcome });
      if (lagSeconds !== undefined) webhookLag.observe({ provider }, Math.max(0, lagSeconds));
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
/** What the job runner records. */
export type JobMetrics = Metrics['job'];

/**
 * METRICS_PORT: the metrics alone on a port of their own (GET /metrics), for a Prometheus that reaches the instances
 * on a private network; the port must not be published to the internet.
 */
export async function serveMetrics(metrics: Metrics, port: number, host: string): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404).end();
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
