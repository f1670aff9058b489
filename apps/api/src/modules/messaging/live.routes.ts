import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LIVE_EVENT_NAME, type LiveEvent } from '@tipcard/shared/live/schemas';
import type { LiveHub } from './messaging.service.ts';

const MINUTE = 60_000;

/** One SSE frame: its number as `id:` (what the client sends back as Last-Event-ID), the event as JSON. */
const frameOf = (event: LiveEvent) => `id: ${event.seq}\nevent: ${LIVE_EVENT_NAME}\ndata: ${JSON.stringify(event)}\n\n`;

/**
 * `GET /api/clients/{clientId}/events` (decision 0041): the signed-in user's live events as server-sent events. The
 * client reads it with fetch and the bearer header (no token in a URL, where logs and history keep it), resuming with
 * Last-Event-ID. Not compressed: a compressor holds bytes back, and a notice must leave at once.
 */
export const liveRoutes: FastifyPluginAsyncZod<{ hub: LiveHub; heartbeatMs: number }> = async (app, { hub, heartbeatMs }) => {
  // Reconnects are cheap but not free: a tab that loops on them is stopped well above any backoff's pace.
  // Open streams never end by themselves: the server ends them, and drops their connections, before it closes, or
  // closing would wait for them.
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of open) end();
  });
  // A stream's connection is never reused: its answer, a stream or a refusal, closes it, so a client's pool keeps no
  // idle connection that a closing server would wait on.
  const closeAfter = async (_request: unknown, reply: { header(name: string, value: string): unknown }) =>
    void reply.header('connection', 'close');
  const perUser = app.rateLimit({ max: 60, timeWindow: MINUTE, keyGenerator: (request) => `live:${request.userId}` });

  app.get(
    '/clients/:clientId/events',
    {
      onRequest: [closeAfter, app.authenticate, perUser],
      compress: false,
      schema: {
        tags: ['live'],
        summary:
          'The user’s live events (credits, releases, payouts) as text/event-stream: `id:` per event, `event: live`, JSON data; resume with Last-Event-ID; `: ping` heartbeats',
        security: [{ bearer: [] }],
        params: z.object({ clientId: z.uuid() }),
        headers: z.object({
          'last-event-id': z
            .string()
            .regex(/^\d{1,15}$/)
            .optional(),
        }),
      },
    },
    async (request, reply) => {
      const header = request.headers['last-event-id'];
      const stream = new PassThrough();
      const live = await hub.openOwn(
        request.userId,
        request.params.clientId,
        header === undefined ? undefined : Number(header),
        (event) => stream.write(frameOf(event)),
      );
      const heartbeat = setInterval(() => stream.write(': ping\n\n'), heartbeatMs);
      const end = () => {
        open.delete(end);
        clearInterval(heartbeat);
        live.close();
        stream.end();
      };
      open.add(end);
      reply.raw.once('close', end);
      // The headers and a first line go out at once: the client knows the stream is open before any event.
      stream.write(': open\n\n');
      return (
        reply
          .type('text/event-stream; charset=utf-8')
          .header('cache-control', 'no-store')
          // nginx, when it is in front, would otherwise buffer the stream.
          .header('x-accel-buffering', 'no')
          .send(stream)
      );
    },
  );
};
