import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const cardsRoutes: FastifyPluginAsyncZod = async () => {};
