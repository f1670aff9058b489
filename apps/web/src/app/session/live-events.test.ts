import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '@tipcard/shared/live/schemas';
import { createSseParser, reconnectDelayMs } from './live-events.ts';

const PAYMENT = '0b7c6a1e-2f3d-4e5a-8b9c-0d1e2f3a4b5c';
const event = (seq: number): LiveEvent => ({
  seq,
  created_at: '2026-03-02T10:00:00.000Z',
  type: 'credit',
  kind: 'tip',
  amount_cents: 475 + seq,
  currency: 'EUR',
  label: 'Café Rīga',
  payment_id: PAYMENT,
});
const frame = (seq: number) => `id: ${seq}\nevent: live\ndata: ${JSON.stringify(event(seq))}\n\n`;
const STREAM = `: ping\n\n${frame(1)}event: other\nid: 9\ndata: {}\n\n${frame(2)}id: 3\nevent: live\ndata: {not json\n\n${frame(4)}`;

function read(chunks: string[]) {
  const seen: [number, string][] = [];
  const parse = createSseParser((received, id) => seen.push([received.seq, id]));
  for (const chunk of chunks) parse(chunk);
  return seen;
}

describe('the live events parser', () => {
  it('answers each live event with its id, skipping heartbeats, other events and a frame it cannot read', () => {
    expect(read([STREAM])).toEqual([
      [1, '1'],
      [2, '2'],
      [4, '4'],
    ]);
  });

  it('reads the same events however the network cuts the stream, CRLF line ends too', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: STREAM.length - 1 }), { maxLength: 12 }),
        fc.boolean(),
        (cuts, crlf) => {
          const text = crlf ? STREAM.replaceAll('\n', '\r\n') : STREAM;
          const points = [0, ...cuts.filter((cut) => cut < text.length).sort((a, b) => a - b), text.length];
          const chunks = points.slice(1).map((end, index) => text.slice(points[index], end));
          expect(read(chunks)).toEqual(read([STREAM]));
        },
      ),
    );
  });

  it('waits 0.5–1 s before the first reconnect, doubling up to 15–30 s', () => {
    expect(reconnectDelayMs(0, () => 0)).toBe(500);
    expect(reconnectDelayMs(0, () => 1)).toBe(1_000);
    expect(reconnectDelayMs(3, () => 1)).toBe(8_000);
    expect(reconnectDelayMs(10, () => 0)).toBe(15_000);
    expect(reconnectDelayMs(10, () => 1)).toBe(30_000);
  });
});
