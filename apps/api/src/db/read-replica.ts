import { sql } from 'drizzle-orm';
import type { Database, Executor } from './client.ts';

/**
 * How stale each kind of replica read may be (decision 0038): past it, the read goes to the primary. A user's own
 * last write is honoured whatever the kind (see `ReadRouter`).
 */
export const MAX_STALENESS_MS = {
  /** The history list: a tip that just arrived shows within a few seconds. */
  history: 5_000,
  /** The overview's figures (today, week, month, latest rows). */
  overview: 5_000,
  /** CSV and data exports: long reads, a file a few seconds old is as good. */
  export: 30_000,
  /** The back office's searches: an operator acting on a hit reloads it from the primary anyway. */
  opsSearch: 10_000,
} as const;
export type ReadKind = keyof typeof MAX_STALENESS_MS;

/** Who made a write and may read next: `user:<id>` or `operator:<id>`. */
export type Principal = `user:${string}` | `operator:${string}`;

export interface ReadRouter {
  /**
   * The executor for a read of `kind`: the replica when it has replayed everything the primary committed up to the
   * kind's staleness ago, and the principal's last remembered write; the primary otherwise (and always without a
   * replica).
   */
  reader(kind: ReadKind, principal?: Principal): Promise<Executor>;
  /** After the principal's write has committed: its reads wait for the replica to replay it (for a while, below). */
  rememberWrite(principal: Principal): Promise<void>;
  /** Whether reads can go anywhere but the primary. */
  readonly hasReplica: boolean;
  /** The replica's staleness at its last probe, in ms (undefined: no replica, or it did not answer). */
  stalenessMs(): Promise<number | undefined>;
}

/** Where principals' last write positions are kept: this process's memory, or Redis so that every instance sees them. */
export interface LastWrites {
  remember(principal: Principal, lsn: bigint, ttlMs: number): Promise<void>;
  lsnOf(principal: Principal): Promise<bigint | undefined>;
}

/** What the store needs of a Redis client (ioredis'). */
export interface LastWritesRedis {
  set(key: string, value: string, mode: 'PX', ms: number): Promise<unknown>;
  get(key: string): Promise<string | null>;
}

export function lastWritesIn(redis: LastWritesRedis | undefined, keyPrefix = 'tipcard:last-write:'): LastWrites {
  if (redis) {
    return {
      async remember(principal, lsn, ttlMs) {
        await redis.set(`${keyPrefix}${principal}`, lsn.toString(), 'PX', ttlMs);
      },
      async lsnOf(principal) {
        const value = await redis.get(`${keyPrefix}${principal}`);
        return value === null ? undefined : BigInt(value);
      },
    };
  }
  const kept = new Map<Principal, { lsn: bigint; until: number }>();
  return {
    async remember(principal, lsn, ttlMs) {
      const now = Date.now();
      // Forget the expired now and then, so the map holds only the recent writers.
      if (kept.size > 10_000) for (const [key, entry] of kept) if (entry.until <= now) kept.delete(key);
      kept.set(principal, { lsn, until: now + ttlMs });
    },
    async lsnOf(principal) {
      const entry = kept.get(principal);
      return entry && entry.until > Date.now() ? entry.lsn : undefined;
    },
  };
}

/** `16/B374D848` → its position as a number, to compare. */
export function parseLsn(text: string): bigint {
  const [high = '', low = ''] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

/** Every read on the primary: without DATABASE_READ_URL, and in the worker and the CLIs. */
export function primaryReads(primary: Database): ReadRouter {
  return {
    reader: async () => primary,
    rememberWrite: async () => undefined,
    hasReplica: false,
    stalenessMs: async () => undefined,
  };
}

/** A remembered write outlives every kind's staleness: after that long, the staleness rule alone already covers it. */
const REMEMBER_WRITE_MS = Math.max(...Object.values(MAX_STALENESS_MS)) + 1_000;
/** The replica's position is asked at most this often per process; between probes the last answer stands. */
const PROBE_EVERY_MS = 250;
/** Samples of the primary's position kept to date the replica's; older ones can date no read any kind allows. */
const SAMPLES_KEPT_MS = REMEMBER_WRITE_MS;

interface Probe {
  at: number;
  /** What the replica had replayed at the probe, or undefined when it did not answer. */
  replayed: bigint | undefined;
  /** The newest moment (wall time) everything committed before which the replica had replayed. */
  freshAsOf: number | undefined;
}

async function lsnOf(db: Database, query: ReturnType<typeof sql>): Promise<bigint | undefined> {
  const result = (await db.execute(query)) as unknown as { rows: { lsn: string | null }[] };
  const text = result.rows[0]?.lsn;
  return text ? parseLsn(text) : undefined;
}

/**
 * Routes reads between the primary and a streaming replica (decision 0038). Replication lag is real elapsed time, so
 * it is measured with the wall clock, not the service clock tests move.
 *
 * Staleness: the router samples the primary's WAL position (`pg_current_wal_lsn()`) with the time it asked, and the
 * replica's replayed position (`pg_last_wal_replay_lsn()`); the replica holds everything committed before the newest
 * sample it has replayed, so its staleness is the time since that sample. This is right on an idle primary too, where
 * `pg_last_xact_replay_timestamp()` alone would keep growing although nothing is missing; on a busy one, where the
 * newest sample is rarely replayed yet, the time of the last commit replayed dates the replica instead.
 *
 * A user's own writes: after a write request the position the primary has reached is kept for the principal (memory
 * or Redis); a read of theirs goes to the replica only once it has replayed that far.
 */
export function createReadRouter({
  primary,
  replica,
  lastWrites,
  onProbeError,
}: {
  primary: Database;
  replica: Database | undefined;
  lastWrites: LastWrites;
  onProbeError?: (error: unknown) => void;
}): ReadRouter {
  if (!replica) return primaryReads(primary);
  const samples: { at: number; lsn: bigint }[] = [];
  let last: Probe | undefined;
  let probing: Promise<Probe> | undefined;

  async function probe(): Promise<Probe> {
    const at = Date.now();
    try {
      // Asked of the primary first: everything committed before `at` is at or below this position.
      const position = await lsnOf(primary, sql`SELECT pg_current_wal_lsn()::text AS lsn`);
      if (position !== undefined) samples.push({ at, lsn: position });
      while (samples.length > 1 && samples[0]!.at < at - SAMPLES_KEPT_MS) samples.shift();
      // A read URL that names a primary (no recovery) holds everything: its own position stands for replayed.
      const result = (await replica!.execute(
        sql`SELECT (CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_lsn() END)::text AS lsn,
                   CASE WHEN pg_is_in_recovery() THEN pg_last_xact_replay_timestamp() ELSE now() END AS replayed_commit`,
      )) as unknown as { rows: { lsn: string | null; replayed_commit: Date | string | null }[] };
      const row = result.rows[0];
      const replayed = row?.lsn ? parseLsn(row.lsn) : undefined;
      const covered = replayed === undefined ? undefined : samples.findLast((sample) => sample.lsn <= replayed)?.at;
      // On a busy primary the newest sample is usually just ahead of the replica: the last commit it replayed dates it
      // too (the primary's clock: keep the machines' clocks synchronised, as any replica monitoring assumes).
      const replayedCommit = row?.replayed_commit ? new Date(row.replayed_commit).getTime() : undefined;
      const freshAsOf = replayed === undefined ? undefined : Math.max(covered ?? -Infinity, replayedCommit ?? -Infinity);
      return { at, replayed, freshAsOf: Number.isFinite(freshAsOf) ? freshAsOf : undefined };
    } catch (error) {
      onProbeError?.(error);
      return { at, replayed: undefined, freshAsOf: undefined };
    }
  }

  async function current(): Promise<Probe> {
    if (last && Date.now() - last.at < PROBE_EVERY_MS) return last;
    probing ??= probe().then((result) => {
      last = result;
      probing = undefined;
      return result;
    });
    return probing;
  }

  return {
    hasReplica: true,
    async reader(kind, principal) {
      const [state, ownWrite] = await Promise.all([
        current(),
        // A store that does not answer (Redis down) cannot vouch for the reader's writes: the primary can.
        principal ? lastWrites.lsnOf(principal).catch(() => 'unknown' as const) : undefined,
      ]);
      if (state.replayed === undefined || state.freshAsOf === undefined) return primary;
      if (Date.now() - state.freshAsOf > MAX_STALENESS_MS[kind]) return primary;
      if (ownWrite === 'unknown' || (ownWrite !== undefined && state.replayed < ownWrite)) return primary;
      return replica;
    },
    async rememberWrite(principal) {
      const position = await lsnOf(primary, sql`SELECT pg_current_wal_lsn()::text AS lsn`);
      if (position !== undefined) await lastWrites.remember(principal, position, REMEMBER_WRITE_MS);
    },
    async stalenessMs() {
      const state = await current();
      return state.freshAsOf === undefined ? undefined : Date.now() - state.freshAsOf;
    },
  };
}
