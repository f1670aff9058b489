import { LIVE_EVENT_NAME, liveEventSchema, type LiveEvent } from '@tipcard/shared/live/schemas';

/** A frame's data as JSON, or undefined when it is not: a frame the app cannot read is skipped, the stream goes on. */
function parseJson(text: string | undefined): unknown {
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The reader of the live events' text/event-stream (decision 0041): frames split on a blank line, `id:` kept as the
 * last id, `event: live` frames parsed with the shared schema; comments (`: ping`) and other events are skipped.
 */
export function createSseParser(onEvent: (event: LiveEvent, id: string) => void) {
  let buffered = '';
  return (chunk: string) => {
    // Normalized after joining: a CRLF may be cut between two chunks.
    buffered = (buffered + chunk).replaceAll('\r\n', '\n');
    let end: number;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const frame = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const fields = new Map<string, string>();
      for (const line of frame.split('\n')) {
        const colon = line.indexOf(':');
        if (colon <= 0) continue;
        fields.set(line.slice(0, colon), line.slice(colon + 1).replace(/^ /, ''));
      }
      const id = fields.get('id');
      if (fields.get('event') !== LIVE_EVENT_NAME || !id) continue;
      const parsed = liveEventSchema.safeParse(parseJson(fields.get('data')));
      if (parsed.success) onEvent(parsed.data, id);
    }
  };
}

/** Waits before the n-th reconnect in a row: 1 s doubling to 30 s, with jitter so that tabs of a restarted server spread out. */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(1_000 * 2 ** attempt, 30_000);
  return Math.round(base / 2 + random() * (base / 2));
}
