import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyCompressOptions } from '@fastify/compress';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A weak validator of what an answer shows: equal text, equal tag. Weak, because compression (br or gzip) changes the
 * bytes while the representation stays the same.
 */
export function weakEtag(text: string): string {
  return `W/"${createHash('sha1').update(text).digest('base64url')}"`;
}

/** Whether the request's If-None-Match names `etag` (weak comparison, a list or `*`, RFC 9110 13.1.2). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === opaque;
  });
}

/**
 * Public data any cache may keep for `maxAgeSeconds` and then revalidate with its tag (docs/decisions/0018): sets
 * Cache-Control, ETag and Vary, and answers 304 when the client already has this version. Returns whether it did.
 */
export function answeredFromCache(
  request: FastifyRequest,
  reply: FastifyReply,
  cache: { etag: string; maxAgeSeconds: number; vary?: string },
): boolean {
  reply.header('cache-control', `public, max-age=${cache.maxAgeSeconds}`).header('etag', cache.etag);
  if (cache.vary) reply.header('vary', cache.vary);
  if (!matches(request.headers['if-none-match'], cache.etag)) return false;
  void reply.status(304).send();
  return true;
}

/**
 * A bounded in-process map that forgets the least recently used entry: what any instance can rebuild from the database.
 * Bounded by its number of entries and, when given, by the bytes its entries say they hold (`set`'s and `grow`'s).
 */
export class BoundedCache<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private bytes = 0;

  constructor(
    private readonly capacity: number,
    private readonly maxBytes = Infinity,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** The entry without making it the most recently used. */
  peek(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  set(key: string, value: V, bytes = 0): void {
    this.delete(key);
    this.entries.set(key, { value, bytes });
    this.bytes += bytes;
    this.evict();
  }

  /** The entry holds `bytes` more than it said (a page added to it): older entries go while the bound is passed. */
  grow(key: string, bytes: number): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    entry.bytes += bytes;
    this.bytes += bytes;
    this.evict();
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  get byteSize(): number {
    return this.bytes;
  }

  private evict(): void {
    while (this.entries.size > this.capacity || (this.bytes > this.maxBytes && this.entries.size > 0)) {
      this.delete(this.entries.keys().next().value!);
    }
  }
}

/**
 * @fastify/compress's options for every answer (app.ts). The web app's scripts are most of a first visit's bytes:
 * compressed they are a quarter of the size. Brotli at a middle quality, since it runs per response.
 */
export const COMPRESSION = {
  encodings: ['br', 'gzip'],
  brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } },
} satisfies FastifyCompressOptions;

/**
 * A route's JSON built per request (the history page): brotli at quality 3, about ten times cheaper than 5 on a
 * page of 20 rows for 3 % more bytes (decision 0051); quality 5 cost that page more than its query.
 */
export const PER_REQUEST_JSON_COMPRESSION = {
  ...COMPRESSION,
  brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 3 } },
} satisfies FastifyCompressOptions;

/** A cached text answer with its compressed forms, each made the first time a client asks for it. */
export interface PrecompressedText {
  text: string;
  compressed: Partial<Record<'br' | 'gzip', Buffer>>;
}

/**
 * Sends a cached text in the encoding the client accepts, compressing it once rather than per request (brotli of a
 * 45 KB page costs milliseconds of the event loop); @fastify/compress leaves an answer that names its encoding alone.
 */
export function sendPrecompressed(request: FastifyRequest, reply: FastifyReply, body: PrecompressedText) {
  const accepted = request.headers['accept-encoding'];
  const encoding = accepted ? negotiate(accepted, ['br', 'gzip']) : null;
  if (!encoding) return reply.send(body.text);
  const bytes = (body.compressed[encoding] ??=
    encoding === 'br'
      ? brotliCompressSync(body.text, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } })
      : gzipSync(body.text, { level: 9 }));
  return reply.header('content-encoding', encoding).send(bytes);
}
