import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
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

/** A bounded in-process map that forgets the least recently used entry: what any instance can rebuild from the database. */
export class BoundedCache<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly capacity: number) {}

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
}

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
