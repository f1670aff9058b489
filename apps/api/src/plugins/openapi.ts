import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERROR_CODES, type ApiErrorBody, type ErrorCode } from '@tipcard/shared/errors/error-codes';
import { isRateLimitHook } from './rate-limit.ts';

const ERROR_SCHEMA = 'ApiError';
/** The body of every error answer, as the document describes it (the shared type is plain TypeScript). */
const apiErrorBodySchema = z.object({
  message: z.string(),
  code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]),
  errors: z.array(z.string()),
  validation_errors: z.record(z.string(), z.array(z.string())),
}) satisfies z.ZodType<ApiErrorBody>;
const errorContent = { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_SCHEMA}` } } };

/** A segment followed by a path parameter names one item of it: `/clients/:clientId` is a client. */
function singular(word: string): string {
  return word
    .replace(/ies$/, 'y')
    .replace(/(ss|x|ch|sh)es$/, '$1')
    .replace(/([^s])s$/, '$1');
}

/** GET /api/clients/:clientId/cards → getClientCards; stable as long as the route's method and path are. */
export function operationIdOf(method: string, url: string): string {
  const segments = url
    .replace(/^\/api(?=\/|$)/, '')
    .split('/')
    .filter(Boolean);
  const words = segments.flatMap((segment, index) => {
    if (segment.startsWith(':')) return [];
    const parts = segment.split(/[^a-zA-Z0-9]+/).filter(Boolean);
    if (segments[index + 1]?.startsWith(':')) parts.push(singular(parts.pop() ?? ''));
    return parts;
  });
  return [method.toLowerCase(), ...words.map((word) => word[0]!.toUpperCase() + word.slice(1))].join('');
}

function hooksOf(route: RouteOptions): unknown[] {
  return [route.onRequest, route.preValidation, route.preHandler].flat();
}

/**
 * The API's OpenAPI document at /api/docs, from the routes' zod schemas. What every operation shares is filled in
 * here from the route options, so a route states only its own contract: the bearer requirement from
 * `onRequest: app.authenticate`, an operationId from method and path (unless the route names one), and the error
 * answers its input, guard, path ids and rate limit make possible, all in the one error format.
 */
export const openapiPlugin = fp(async (app: FastifyInstance) => {
  const { authenticate } = app;
  await app.register(swagger, {
    openapi: {
      info: { title: 'Tipcard API', version: '1.0.0' },
      servers: [{ url: '/', description: 'The server this document came from' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          // The back office's operator tokens (issue 15): another audience, never accepted by the user routes.
          opsBearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        },
        schemas: { [ERROR_SCHEMA]: z.toJSONSchema(apiErrorBodySchema, { target: 'openapi-3.0', io: 'output' }) as object },
      },
    },
    transform: (document) => {
      const transformed = jsonSchemaTransform(document);
      const { schema } = transformed;
      if (schema.hide) return transformed;
      const { route } = document;
      const hooks = hooksOf(route);
      const authenticated = hooks.includes(authenticate);
      const errors: Record<string, string> = {
        ...(schema.body ? { 400: 'The body is not well-formed JSON' } : {}),
        ...(authenticated ? { 401: 'No valid access token: refresh it and repeat the call' } : {}),
        ...(!authenticated && (schema.security ?? []).length > 0 ? { 401: 'No live operator session: sign in again' } : {}),
        ...(schema.params ? { 404: 'Nothing with this id here (a malformed id included)' } : {}),
        ...(schema.body || schema.querystring || schema.headers
          ? { 422: 'Invalid input: `validation_errors` names the fields' }
          : {}),
        ...(hooks.some(isRateLimitHook) ? { 429: 'Too many requests: `Retry-After` says when to try again' } : {}),
        '4XX': 'Any other refusal, in the same format',
      };
      const response = { ...(schema.response as Record<string, unknown> | undefined) };
      // Files, CSV and empty answers have no zod schema; say that they succeed rather than nothing at all.
      if (!Object.keys(response).some((status) => status.startsWith('2')))
        response['2XX'] = { description: 'Success; the body is not described here' };
      for (const [status, description] of Object.entries(errors)) response[status] ??= { description, content: errorContent };
      return {
        url: transformed.url,
        schema: {
          ...schema,
          operationId: schema.operationId ?? operationIdOf(String(route.method), route.url),
          security: authenticated ? [{ bearer: [] }] : (schema.security ?? []),
          response,
        },
      };
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
});
