import { randomUUID } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Locale } from '@tipcard/shared/constants';
import type { PublicCard } from '@tipcard/shared/payments/schemas';
import type { Database, Listen } from '../../db/client.ts';
import { BoundedCache, weakEtag, type PrecompressedText } from '../../lib/http-cache.ts';

/** The channel the database announces a changed card's id on (migration 0036_public_card_notify, decision 0051). */
export const PUBLIC_CARDS_CHANNEL = 'public_cards';

/** Cards kept per process, and the bytes their JSON and rendered pages may hold in all (decision 0051). */
const MAX_CARDS = 5_000;
const MAX_BYTES = 64 * 1024 * 1024;
/** A kept card is read again after this long even without a notice: the bound on any staleness the triggers miss. */
const SAFETY_TTL_MS = 60_000;
/** How long after a failed LISTEN the next read tries to open it again. */
const LISTEN_RETRY_MS = 5_000;
/** A fence's own notice not back by then (a session being lost) lets the answer go; the cache is dropped meanwhile. */
const FENCE_TIMEOUT_MS = 1_000;

/** The guest's form page of a card in one language, with its tag and compressed forms. */
export interface CachedPage extends PrecompressedText {
  etag: string;
}

/** What the public reads of one card answer from: the card (null: not found), its answer's body and tag, its pages. */
export interface PublicCardRead {
  card: PublicCard | null;
  /** `{"data": card}`, serialized once. */
  body: string;
  etag: string;
  /** The form page per language, rendered once (a render under way is shared). */
  pages: Map<Locale, Promise<CachedPage | null>>;
}

interface Entry {
  read: PublicCardRead;
  expiresAt: number;
}

export type PublicCardCache = ReturnType<typeof createPublicCardCache>;

/**
 * The public card and its rendered guest pages kept in this process (decision 0051): served with no database read
 * while valid. Valid means this instance LISTENs on `public_cards`, no notice named the card since it was read, and it
 * is younger than the safety TTL. The database's triggers announce every change of what the card shows, whoever
 * writes it; a lost LISTEN session drops everything and stops keeping until it is back. Without a LISTEN session
 * (a transaction pooler and no direct URL, the worker, the CLIs) nothing is kept: every read is the database's.
 */
export function createPublicCardCache({
  db,
  listen,
  log,
  now = Date.now,
  ttlMs = SAFETY_TTL_MS,
}: {
  db: Database;
  listen: Listen | undefined;
  log: FastifyBaseLogger;
  now?: () => number;
  ttlMs?: number;
}) {
  const kept = new BoundedCache<Entry>(MAX_CARDS, MAX_BYTES);
  const loading = new Map<string, Promise<PublicCardRead>>();
  /** Moves on every notice: a read that started before one is served but not kept (it may predate the change). */
  let generation = 0;
  let listening = false;
  let starting: Promise<void> | undefined;
  let lastAttempt = -Infinity;
  let stop: (() => Promise<void>) | undefined;
  let closed = false;
  /** This process's fences: a notice `fence:<process>:<n>` comes back after every notice committed before it. */
  const fencePrefix = `fence:${randomUUID()}:`;
  let fences = 0;
  const fencesOut = new Map<string, () => void>();
  let nextFence: Promise<void> | undefined;

  function onNotice(payload: string) {
    if (!payload.startsWith('fence:')) return forget(payload);
    fencesOut.get(payload)?.();
  }

  function releaseFences() {
    for (const release of fencesOut.values()) release();
  }

  /** One fence for every write that asked before it was sent. */
  function sendFence(): Promise<void> {
    const payload = `${fencePrefix}${(fences += 1)}`;
    return new Promise<void>((resolve) => {
      const timer = setTimeout(release, FENCE_TIMEOUT_MS);
      function release() {
        clearTimeout(timer);
        fencesOut.delete(payload);
        resolve();
      }
      fencesOut.set(payload, release);
      db.execute(sql`SELECT pg_notify(${PUBLIC_CARDS_CHANNEL}, ${payload})`).catch((error: unknown) => {
        log.warn({ err: error }, 'public card cache: a fence failed; dropping what is kept');
        forgetAll();
        release();
      });
    });
  }

  function forget(cardId: string) {
    generation += 1;
    kept.delete(cardId);
    loading.delete(cardId);
  }

  function forgetAll() {
    generation += 1;
    kept.clear();
    loading.clear();
  }

  function start() {
    if (!listen || closed || starting || listening || now() - lastAttempt < LISTEN_RETRY_MS) return;
    lastAttempt = now();
    starting = listen(
      PUBLIC_CARDS_CHANNEL,
      onNotice,
      () => {
        forgetAll();
        listening = true;
      },
      () => {
        listening = false;
        forgetAll();
        releaseFences();
      },
    )
      .then(async (unlisten) => {
        if (closed) return unlisten();
        stop = unlisten;
        forgetAll();
        listening = true;
      })
      .catch((error: unknown) => log.warn({ err: error }, 'public card cache: LISTEN failed; reading the database'))
      .finally(() => (starting = undefined));
  }

  const bytesOfPage = (page: CachedPage) =>
    Buffer.byteLength(page.text) + (page.compressed.br?.byteLength ?? 0) + (page.compressed.gzip?.byteLength ?? 0);

  return {
    /** The card's public read: from memory when valid, else from `load` (one load per card at a time), kept if nothing changed meanwhile. */
    async read(id: string, load: () => Promise<PublicCard | null>): Promise<PublicCardRead> {
      // PostgreSQL reads a uuid in either case; its notices name it in lower case.
      const cardId = id.toLowerCase();
      const entry = kept.get(cardId);
      if (entry && entry.expiresAt > now()) return entry.read;
      if (entry) kept.delete(cardId);
      if (!listening) start();
      let pending = loading.get(cardId);
      if (!pending) {
        // Only what was read while listening, with no notice since, can be kept.
        const startedAt = listening ? generation : -1;
        pending = load().then((card) => {
          const body = JSON.stringify({ data: card });
          const read: PublicCardRead = { card, body, etag: card ? weakEtag(JSON.stringify(card)) : '', pages: new Map() };
          // An unknown id is not kept: guessed ids would push the real cards out.
          if (card && startedAt === generation && listening) {
            kept.set(cardId, { read, expiresAt: now() + ttlMs }, Buffer.byteLength(body));
          }
          if (loading.get(cardId) === pending) loading.delete(cardId);
          return read;
        });
        loading.set(cardId, pending);
        pending.catch(() => {
          if (loading.get(cardId) === pending) loading.delete(cardId);
        });
      }
      return pending;
    },

    /**
     * The card's form page in a language, rendered by `render` once per card version: compressed once (brotli and
     * gzip) and kept beside the card while the card is.
     */
    page(read: PublicCardRead, locale: Locale, render: () => Promise<string | null>): Promise<CachedPage | null> {
      // The guests who open a card together wait for one render.
      let pending = read.pages.get(locale);
      if (!pending) {
        pending = render().then((text) => {
          if (text === null) {
            read.pages.delete(locale);
            return null;
          }
          const page: CachedPage = {
            text,
            etag: weakEtag(text),
            compressed: {
              br: brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
              gzip: gzipSync(text, { level: 9 }),
            },
          };
          const cardId = read.card?.id;
          if (cardId && kept.peek(cardId)?.read === read) kept.grow(cardId, bytesOfPage(page));
          return page;
        });
        pending.catch(() => read.pages.delete(locale));
        read.pages.set(locale, pending);
      }
      return pending;
    },

    /**
     * Resolves once this instance has had every notice of what was committed before the call: a write's answer waits
     * for it, so that its author's next read on this instance is never an older copy (app.ts, `onSend` of a write).
     * Free when nothing is kept nor being read.
     */
    fence(): Promise<void> | undefined {
      if (!listening || (kept.size === 0 && loading.size === 0)) return undefined;
      nextFence ??= new Promise<void>((resolve) =>
        setImmediate(() => {
          nextFence = undefined;
          void sendFence().then(resolve);
        }),
      );
      return nextFence;
    },

    /** Cards kept now and the bytes they hold (tests, metrics). */
    stats: () => ({ cards: kept.size, bytes: kept.byteSize, listening }),

    async close(): Promise<void> {
      closed = true;
      listening = false;
      forgetAll();
      releaseFences();
      await starting;
      await stop?.();
    },
  };
}
