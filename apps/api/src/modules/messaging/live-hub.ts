import type { FastifyBaseLogger } from 'fastify';
import type { LiveEvent, LiveEventBody } from '@tipcard/shared/live/schemas';
import type { Database, Listen } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { requireOwnClient } from '../users/users.service.ts';
import * as repo from './live-events.repository.ts';

/** Events read per query while a stream catches up. */
const PAGE = 100;

export interface LiveStream {
  close(): void;
}

interface Subscriber {
  userId: string;
  lastSeq: number;
  send: (event: LiveEvent) => void;
  /** A read is under way; `again` asks it to read once more when it ends (a notice came meanwhile). */
  reading: boolean;
  again: boolean;
  closed: boolean;
}

export type LiveHub = ReturnType<typeof createLiveHub>;

const toEvent = (row: repo.LiveEventRow): LiveEvent => ({
  seq: Number(row.seq),
  created_at: row.createdAt.toISOString(),
  ...(row.body as LiveEventBody),
});

/**
 * This instance's side of live events (decision 0041): ONE LISTEN session for the whole process, opened with the first
 * stream, and the open streams it fans out to. A notice only says "user u has event n": each stream then reads its
 * user's events after the last one it sent, from the table, so events go out once, in order, whatever the notices do
 * (lost with a dropped session, doubled, or late); a session back from a drop makes every stream re-read.
 */
export function createLiveHub({
  db,
  listen,
  log,
  maxStreamsPerUser,
}: {
  db: Database;
  listen: Listen | undefined;
  log: FastifyBaseLogger;
  maxStreamsPerUser: number;
}) {
  const byUser = new Map<string, Set<Subscriber>>();
  let listening: Promise<() => Promise<void>> | undefined;

  async function read(subscriber: Subscriber): Promise<void> {
    if (subscriber.reading) {
      subscriber.again = true;
      return;
    }
    subscriber.reading = true;
    try {
      do {
        subscriber.again = false;
        let rows: repo.LiveEventRow[];
        do {
          rows = await repo.liveEventsAfter(db, subscriber.userId, subscriber.lastSeq, PAGE);
          for (const row of rows) {
            if (subscriber.closed) return;
            subscriber.lastSeq = Number(row.seq);
            subscriber.send(toEvent(row));
          }
        } while (rows.length === PAGE);
      } while (subscriber.again && !subscriber.closed);
    } catch (error) {
      // The next notice or heartbeat's read tries again from the same number.
      log.warn({ err: error }, 'live events: reading a stream’s events failed');
    } finally {
      subscriber.reading = false;
    }
  }

  function onNotify(payload: string) {
    const [userId = '', seq = ''] = payload.split(':');
    for (const subscriber of byUser.get(userId) ?? []) {
      if (Number(seq) > subscriber.lastSeq) void read(subscriber);
    }
  }

  function readAll() {
    for (const subscribers of byUser.values()) for (const subscriber of subscribers) void read(subscriber);
  }

  function startListening() {
    if (!listen) throw new Error('live events need a LISTEN session: set DATABASE_DIRECT_URL behind a transaction pooler');
    listening ??= listen(repo.LIVE_CHANNEL, onNotify, () => {
      log.info('live events: LISTEN session back, streams re-read their events');
      readAll();
    }).catch((error: unknown) => {
      listening = undefined;
      throw error;
    });
    return listening;
  }

  return {
    /** Whether this instance can serve streams (it has a LISTEN session to open). */
    available: listen !== undefined,

    /**
     * Opens a stream of the user's events after `afterSeq` (the client's Last-Event-ID), or after the newest one when
     * it has none. Refused beyond the per-user cap of this instance.
     */
    async open(userId: string, afterSeq: number | undefined, send: (event: LiveEvent) => void): Promise<LiveStream> {
      // Listening first, then reading: an event committed between the two is read, not lost.
      await startListening();
      const lastSeq = afterSeq ?? (await repo.lastLiveSeq(db, userId));
      // Counted after the awaits, so that concurrent opens cannot all pass the cap.
      const subscribers = byUser.get(userId) ?? new Set<Subscriber>();
      if (subscribers.size >= maxStreamsPerUser) throw new AppError('too_many_requests');
      const subscriber: Subscriber = { userId, lastSeq, send, reading: false, again: false, closed: false };
      subscribers.add(subscriber);
      byUser.set(userId, subscribers);
      void read(subscriber);
      return {
        close() {
          subscriber.closed = true;
          subscribers.delete(subscriber);
          if (subscribers.size === 0 && byUser.get(userId) === subscribers) byUser.delete(userId);
        },
      };
    },

    /** The stream of the events of a client's user, for that user only (404 for another's client, like every client route). */
    async openOwn(userId: string, clientId: string, afterSeq: number | undefined, send: (event: LiveEvent) => void) {
      const client = await requireOwnClient(db, userId, clientId);
      return this.open(client.userId, afterSeq, send);
    },

    /** Every stream re-reads (a heartbeat's safety net against a notice this instance never got). */
    catchUp: readAll,

    /** Open streams on this instance (metrics and tests). */
    openStreams: () => [...byUser.values()].reduce((sum, set) => sum + set.size, 0),

    async close(): Promise<void> {
      byUser.clear();
      const stop = await listening?.catch(() => undefined);
      listening = undefined;
      await stop?.();
    },
  };
}
