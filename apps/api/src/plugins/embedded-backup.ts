import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error.ts';
import { isLoopback } from '../lib/loopback.ts';

/**
 * POST /api/internal/backup, only on the embedded database: the running server dumps it (`db/backup.ts`) for
 * `npm run backup`, since no other process may open its files. Answered to this machine only, and only with the token
 * derived from JWT_SECRET (`backupToken`); anything else is a 404, as if the route did not exist.
 */
export async function embeddedBackupRoutes(app: FastifyInstance, options: { token: string; dump: () => Promise<Buffer> }) {
  const expected = Buffer.from(`Bearer ${options.token}`);
  app.post(
    '/internal/backup',
    {
      schema: { hide: true },
      onRequest: async (request) => {
        const given = Buffer.from(request.headers.authorization ?? '');
        const tokenMatches = given.length === expected.length && timingSafeEqual(given, expected);
        if (!isLoopback(request.socket.remoteAddress) || !tokenMatches) throw new AppError('not_found');
      },
    },
    async (_request, reply) => reply.header('content-type', 'application/gzip').send(await options.dump()),
  );
}
