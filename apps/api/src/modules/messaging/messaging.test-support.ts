import { LIVE_EVENT_NAME, liveEventSchema, type LiveEvent } from '@tipcard/shared/live/schemas';
import type { TestApp } from '../../test/test-app.ts';

export interface Stream {
  status: number;
  headers: Headers;
  events: LiveEvent[];
  /** Every `id:` line, as the client would keep the last one. */
  ids: string[];
  close(): void;
}

async function baseUrlOf(t: TestApp): Promise<string> {
  const address = t.app.server.address();
  if (address && typeof address === 'object') return `http://127.0.0.1:${address.port}`;
  return t.app.listen({ port: 0, host: '127.0.0.1' });
}

/** Opens the live stream as the web app does (fetch with the bearer header) and collects its events. */
export async function openStream(t: TestApp, user: { clientId: string; jwt: string }, lastEventId?: number): Promise<Stream> {
  const controller = new AbortController();
  const response = await fetch(`${await baseUrlOf(t)}/api/clients/${user.clientId}/events`, {
    headers: {
      authorization: `Bearer ${user.jwt}`,
      'accept-encoding': 'br, gzip',
      ...(lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) }),
    },
    signal: controller.signal,
  });
  const stream: Stream = {
    status: response.status,
    headers: response.headers,
    events: [],
    ids: [],
    close: () => controller.abort(),
  };
  if (response.status !== 200 || !response.body) {
    await response.body?.cancel();
    return stream;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffered = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffered += value;
        let end: number;
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          const frame = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const lines = frame.split('\n');
          const field = (name: string) => lines.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
          if (field('event') !== LIVE_EVENT_NAME) continue;
          stream.ids.push(field('id')!);
          stream.events.push(liveEventSchema.parse(JSON.parse(field('data')!)));
        }
      }
    } catch {
      // Aborted by close().
    }
  })();
  return stream;
}
