import { sql } from 'drizzle-orm';
import { pendingMigrations, type Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { OperationalFigures } from '../../lib/metrics.ts';
import { outboxBacklog } from '../messaging/messaging.service.ts';
import { countPaymentsByStatus } from '../payments/payments.service.ts';
import { payoutsInFlight } from '../payouts/payouts.service.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';

export type HealthService = ReturnType<typeof createHealthService>;

/** What readiness needs of a Redis client (ioredis'): a round trip, queued while it is still connecting. */
export interface PingableRedis {
  ping(): Promise<unknown>;
}

/** A scrape storm (many Prometheus servers, a dashboard refreshing) reads the database at most this often. */
const FIGURES_TTL_MS = 10_000;
/** The ledger invariant check reads every balance: it runs this often at most, never per scrape. */
const LEDGER_CHECK_INTERVAL_MS = 5 * 60_000;

/** A dependency that hangs must fail the probe, not hold it: orchestrators give a probe a few seconds. */
const CHECK_TIMEOUT_MS = 2_000;

async function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The readiness checks: what failed, by name; empty when the instance may take traffic. */
export type ReadinessProblem = 'database' | 'redis' | 'migrations';

/**
 * What the readiness probe asks (liveness asks nothing): the database answers, Redis answers where one is configured,
 * and the database has every migration this code ships (an instance of a newer release started before its migration
 * ran must not take traffic).
 */
export function createHealthService({ db, clock }: { db: Database; clock: Clock }) {
  // Monotonic time for the caches: how often this process reads, whatever the application's clock says.
  let figures: { at: number; value: Promise<OperationalFigures> } | undefined;
  let ledger: { at: number; run: Promise<OperationalFigures['ledger']>; last: OperationalFigures['ledger'] } | undefined;

  /** The last check's result; a new one starts in the background once the last is old, and the first is waited for. */
  async function ledgerHealth(): Promise<OperationalFigures['ledger']> {
    const now = performance.now();
    if (ledger && now - ledger.at < LEDGER_CHECK_INTERVAL_MS) return ledger.last ?? ledger.run;
    const previous = ledger?.last ?? null;
    const entry: NonNullable<typeof ledger> = {
      at: now,
      last: previous,
      run: checkLedgerInvariants(db).then(
        (problems) => {
          entry.last = { problems: problems.length, checkedAtSeconds: clock.now().getTime() / 1000 };
          return entry.last;
        },
        () => previous,
      ),
    };
    ledger = entry;
    return previous ?? entry.run;
  }

  async function readFigures(): Promise<OperationalFigures> {
    const now = clock.now().getTime();
    const ageSeconds = (at: Date | null) => (at ? Math.max(0, (now - at.getTime()) / 1000) : 0);
    const [paymentsByStatus, payouts, outbox, ledgerNow] = await Promise.all([
      countPaymentsByStatus(db),
      payoutsInFlight(db, new Date(now)),
      outboxBacklog(db),
      ledgerHealth(),
    ]);
    return {
      paymentsByStatus,
      payoutsInFlight: {
        count: payouts.count,
        amountCents: payouts.amountCents,
        due: payouts.due,
        oldestAgeSeconds: ageSeconds(payouts.oldestConfirmedAt),
      },
      outbox: { backlog: outbox.count, oldestAgeSeconds: ageSeconds(outbox.oldestCreatedAt) },
      ledger: ledgerNow,
    };
  }

  return {
    /** The metrics' database gauges, read at most every FIGURES_TTL_MS; concurrent scrapes share one read. */
    operationalFigures(): Promise<OperationalFigures> {
      const now = performance.now();
      if (!figures || now - figures.at >= FIGURES_TTL_MS) {
        const value = readFigures();
        // A failed read is not kept: the next scrape tries again.
        value.catch(() => {
          if (figures?.value === value) figures = undefined;
        });
        figures = { at: now, value };
      }
      return figures.value;
    },

    async readinessProblems(redis: PingableRedis | undefined): Promise<ReadinessProblem[]> {
      const database = within(
        db.execute(sql`SELECT 1`).then(() => pendingMigrations(db)),
        CHECK_TIMEOUT_MS,
      ).then(
        (pending) => (pending.length > 0 ? (['migrations'] as const) : []),
        () => ['database'] as const,
      );
      const cache =
        redis === undefined
          ? Promise.resolve([])
          : within(redis.ping(), CHECK_TIMEOUT_MS).then(
              () => [],
              () => ['redis'] as const,
            );
      return (await Promise.all([database, cache])).flat();
    },
  };
}
