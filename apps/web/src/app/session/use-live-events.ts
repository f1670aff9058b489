import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { LiveEvent } from '@tipcard/shared/live/schemas';
import { api } from '../../lib/api-client.ts';
import { createSseParser, reconnectDelayMs } from './live-events.ts';

/** The queries a credit or a payout's change makes stale (their keys' first part). */
const STALE_AFTER_MONEY = new Set(['balances', 'overview', 'transactions', 'payouts', 'payout', 'payout-terms']);
/** The queries a team notice makes stale: the notices, and the team the admin changed (membership, rule, period). */
const STALE_AFTER_NOTICE = new Set(['notices', 'workplace', 'team', 'team-requests']);

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * The tab's one live stream (decision 0041), while the layout of the signed-in app is shown: fetch with the bearer
 * header, reconnecting with backoff from the last event id, so nothing is missed across a dropped connection. Each
 * money event refreshes the balances, history, overview and payouts, each team notice the notices and the team, and
 * every event is handed to `onEvent` (the notice).
 */
export function useLiveEvents(clientId: string | undefined, onEvent: (event: LiveEvent) => void) {
  const queryClient = useQueryClient();
  const handler = useRef(onEvent);
  useEffect(() => {
    handler.current = onEvent;
  }, [onEvent]);

  useEffect(() => {
    if (!clientId) return;
    const controller = new AbortController();
    const { signal } = controller;
    let lastId: string | undefined;
    const parse = createSseParser((event, id) => {
      lastId = id;
      const stale = event.type === 'notice' ? STALE_AFTER_NOTICE : STALE_AFTER_MONEY;
      void queryClient.invalidateQueries({ predicate: (query) => stale.has(String(query.queryKey[0])) });
      handler.current(event);
    });

    void (async () => {
      for (let attempt = 0; !signal.aborted; attempt += 1) {
        try {
          const response = await api.stream(`/clients/${clientId}/events`, {
            headers: { Accept: 'text/event-stream', ...(lastId ? { 'Last-Event-ID': lastId } : {}) },
            signal,
          });
          const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
          attempt = 0;
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            parse(value);
          }
        } catch {
          // A dropped connection, a server restart or a refused session: try again below unless the tab left.
        }
        await sleep(reconnectDelayMs(attempt), signal);
      }
    })();
    return () => controller.abort();
  }, [clientId, queryClient]);
}
