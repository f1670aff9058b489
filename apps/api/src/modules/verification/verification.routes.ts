import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MAX_UPLOAD_BYTES } from '@tipcard/shared/constants';
import { verificationBody, verificationSchema } from '@tipcard/shared/verification/schemas';
import { data } from '../../lib/envelope.ts';
import type { VerificationService } from './verification.service.ts';

const clientParams = z.object({ clientId: z.uuid() });
const MINUTE = 60_000;
/** Submissions per user per minute: each carries up to 20 MB of documents to decode and re-encode. */
const SUBMISSIONS_PER_MINUTE = 10;
/** Two documents of 10 MB as base64 (the person form) plus the JSON around them. */
const BODY_LIMIT = 2 * Math.ceil((MAX_UPLOAD_BYTES * 4) / 3) + 64 * 1024;

export const verificationRoutes: FastifyPluginAsyncZod<{ verification: VerificationService }> = async (app, { verification }) => {
  const owner = { onRequest: app.authenticate };
  const tags = ['verification'];
  const security = [{ bearer: [] }];

  app.get(
    '/clients/:clientId/verification',
    {
      ...owner,
      schema: {
        tags,
        security,
        summary: "The user's identity verification: not_started, pending, approved or rejected (with the reason)",
        params: clientParams,
        response: { 200: data(verificationSchema) },
      },
    },
    async (request) => ({ data: await verification.get(request.userId, request.params.clientId) }),
  );

  app.post(
    '/clients/:clientId/verification',
    {
      ...owner,
      bodyLimit: BODY_LIMIT,
      // After authentication, so the limit is per user.
      preHandler: app.rateLimit({
        max: SUBMISSIONS_PER_MINUTE,
        timeWindow: MINUTE,
        keyGenerator: (request) => `verification:${request.userId}`,
      }),
      schema: {
        tags,
        security,
        summary:
          'Submit the person or company form with its documents (PDF, JPEG or PNG by content, base64, at most 10 MB each); allowed when not started or rejected',
        params: clientParams,
        body: verificationBody,
        response: { 201: data(verificationSchema) },
      },
    },
    async (request, reply) => {
      return reply.status(201).send({
        data: await verification.submit(request.userId, request.params.clientId, request.body),
      });
    },
  );
};
