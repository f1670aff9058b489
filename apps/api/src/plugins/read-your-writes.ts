import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Principal, ReadRouter } from '../db/read-replica.ts';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A signed-in user's or operator's write request, before its answer leaves (the handler's transaction has committed
 * by then), makes sure their next read sees it:
 * - the public card cache of this instance has had the database's notices of that write (decision 0051), so the
 *   owner who renames a card and opens its page here sees the new name (other instances get the notice within
 *   milliseconds);
 * - with a read replica, how far the primary has got is noted, so that their next read, on whichever instance, waits
 *   for the replica to replay it (decision 0038).
 * Reads, and writes of no one signed in (webhooks, guests), add nothing.
 */
export const readYourWritesPlugin = fp(
  async (
    app: FastifyInstance,
    { reads, publicCards }: { reads: ReadRouter; publicCards: { fence(): Promise<void> | undefined } },
  ) => {
    const principalOf = (request: FastifyRequest): Principal | undefined =>
      request.userId ? `user:${request.userId}` : request.operator ? `operator:${request.operator.id}` : undefined;

    const afterWrite = async (request: FastifyRequest, principal: Principal) => {
      await publicCards.fence();
      // Not remembered, the principal's reads follow the staleness rule alone: worth a warning, not a failed answer.
      if (reads.hasReplica) {
        await reads
          .rememberWrite(principal)
          .catch((error: unknown) => request.log.warn({ err: error }, 'last write not remembered'));
      }
    };

    app.addHook('onSend', (request, _reply, payload, done) => {
      const principal = READS.has(request.method) ? undefined : principalOf(request);
      if (!principal) return done(null, payload);
      afterWrite(request, principal).then(
        () => done(null, payload),
        (error: unknown) => done(error as Error),
      );
    });
  },
);
