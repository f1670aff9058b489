import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { Refusal, recordRefusal } from './refusal.ts';

export interface SentryItem {
  type: string;
  /** The item's payload parsed as JSON (events, sessions); the raw text for other kinds. */
  payload: unknown;
  /** The payload exactly as it arrived, for scanning it for values that must not be there. */
  raw: string;
}

export interface FakeSentry {
  /** `http://<key>@127.0.0.1:<port>/<project>`, as SENTRY_DSN. */
  dsn: string;
  items: SentryItem[];
  /** What was refused (status and why), to prove a test's envelopes were well-formed. */
  refused: { status: number; reason: string }[];
  /** The event items (errors and messages) received so far. */
  events(): SentryItem[];
  /** Waits until `count` events have arrived; throws after `timeoutMs`. */
  waitForEvents(count: number, timeoutMs?: number): Promise<SentryItem[]>;
  close(): Promise<void>;
}

/**
 * Parses an envelope as Sentry's ingestion does (develop.sentry.dev "Envelopes"): a JSON object header line, then
 * items, each a JSON header line with a `type` and an optional `length`, then its payload: `length` bytes exactly, or
 * up to the next newline. Anything else is refused with 400, as the real endpoint does.
 */
export function parseEnvelope(body: Buffer): { header: Record<string, unknown>; items: SentryItem[] } {
  let at = 0;
  const line = () => {
    const end = body.indexOf(0x0a, at);
    const text = body.subarray(at, end === -1 ? body.length : end).toString('utf8');
    at = end === -1 ? body.length : end + 1;
    return text;
  };
  const json = (text: string, what: string) => {
    try {
      const value: unknown = JSON.parse(text);
      if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // Refused below.
    }
    throw new Refusal(400, `${what} is not a JSON object`);
  };
  const header = json(line(), 'the envelope header');
  const items: SentryItem[] = [];
  while (at < body.length) {
    const headerLine = line();
    if (headerLine === '' && at >= body.length) break;
    const itemHeader = json(headerLine, 'an item header');
    if (typeof itemHeader.type !== 'string' || itemHeader.type === '') throw new Refusal(400, 'an item has no type');
    let raw: string;
    if (itemHeader.length !== undefined) {
      if (!Number.isInteger(itemHeader.length) || (itemHeader.length as number) < 0)
        throw new Refusal(400, 'an item length is not a count');
      const length = itemHeader.length as number;
      if (at + length > body.length) throw new Refusal(400, 'an item is shorter than its length');
      raw = body.subarray(at, at + length).toString('utf8');
      at += length;
      if (at < body.length && body[at] !== 0x0a) throw new Refusal(400, 'an item runs past its length');
      if (at < body.length) at += 1;
    } else {
      raw = line();
    }
    const payload = ['event', 'transaction', 'session', 'client_report'].includes(itemHeader.type)
      ? json(raw, `a ${itemHeader.type} payload`)
      : raw;
    items.push({ type: itemHeader.type, payload, raw });
  }
  if (items.length === 0) throw new Refusal(400, 'the envelope has no items');
  return { header, items };
}

/** A local stand-in for Sentry's ingestion: accepts envelopes for one project and key at /api/<project>/envelope/. */
export async function startFakeSentry(options: { project?: string; key?: string } = {}): Promise<FakeSentry> {
  const project = options.project ?? '42';
  const key = options.key ?? 'fakepublickey';
  const items: SentryItem[] = [];
  const refused: FakeSentry['refused'] = [];

  const keyOf = (url: URL, authHeader: string | undefined, envelopeDsn: unknown) =>
    url.searchParams.get('sentry_key') ??
    /sentry_key=([^,\s]+)/.exec(authHeader ?? '')?.[1] ??
    (typeof envelopeDsn === 'string' ? new URL(envelopeDsn).username : undefined);

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      // A browser's cross-origin POST: the real endpoint answers its CORS.
      response.setHeader('access-control-allow-origin', '*');
      response.setHeader('access-control-allow-headers', '*');
      if (request.method === 'OPTIONS') return void response.writeHead(204).end();
      try {
        const url = new URL(request.url ?? '/', 'http://fake');
        if (request.method !== 'POST' || url.pathname !== `/api/${project}/envelope/`)
          throw new Refusal(404, `no endpoint ${request.method} ${url.pathname}`);
        let body = Buffer.concat(chunks);
        if (request.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
        const envelope = parseEnvelope(body);
        if (keyOf(url, request.headers['x-sentry-auth'] as string | undefined, envelope.header.dsn) !== key)
          throw new Refusal(401, 'missing or unknown sentry_key');
        items.push(...envelope.items);
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ id: envelope.header.event_id ?? null }));
      } catch (error) {
        response
          .writeHead(recordRefusal(error, refused), { 'content-type': 'application/json' })
          .end(JSON.stringify({ detail: 'refused' }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const events = () => items.filter((item) => item.type === 'event');
  return {
    dsn: `http://${key}@127.0.0.1:${port}/${project}`,
    items,
    refused,
    events,
    async waitForEvents(count, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (events().length < count) {
        if (Date.now() > until) throw new Error(`${events().length} of ${count} events arrived at the fake Sentry`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return events();
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
