import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Principal, ReadRouter } from '../db/read-replica.ts';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * With a read replica, a signed-in user's or operator's write request notes how far the primary has got before its
 * answer leaves (the handler's transaction has committed by then), so that their next read, on whichever instance,
 * waits for the replica to replay it (decision 0038). Without a replica it adds nothing.
 */
export const readYourWritesPlugin = fp(async (app: FastifyInstance, { reads }: { reads: ReadRouter }) => {
  if (!reads.hasReplica) return;
  app.addHook('onSend', async (request, _reply, payload) => {
    if (READS.has(request.method)) return payload;
    const principal: Principal | undefined = request.userId
      ? `user:${request.userId}`
      : request.operator
        ? `operator:${request.operator.id}`
        : undefined;
    if (principal) {
      // Not remembered, the principal's reads follow the staleness rule alone: worth a warning, not a failed answer.
      await reads
        .rememberWrite(principal)
        .catch((error: unknown) => request.log.warn({ err: error }, 'last write not remembered'));
    }
    return payload;
  });
});
