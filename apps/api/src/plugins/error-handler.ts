import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorCode } from '@tipcard/shared/errors/error-codes';
import { RULE_VARIABLES, type ValidationRule } from '@tipcard/shared/validation';
import { AppError, errorBody } from '../lib/app-error.ts';
import type { ErrorReporter } from '../lib/error-reporting.ts';
import { t } from '../lib/i18n.ts';

const FRAMEWORK_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'bad_request',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'bad_request',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad_request',
};

/** Zod messages are `validation.{rule}` keys; the wire carries the English text, keyed by field. */
function validationErrors(error: { validation: { instancePath: string; message?: string }[] }) {
  const fields: Record<string, string[]> = {};
  for (const issue of error.validation) {
    const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'body';
    const message = issue.message?.startsWith('validation.')
      ? t(issue.message, RULE_VARIABLES[issue.message.slice('validation.'.length) as ValidationRule])
      : t('validation.valid');
    const messages = (fields[field] ??= []);
    if (!messages.includes(message)) messages.push(message);
  }
  return fields;
}

/** Every error leaves in the spec's format; a 5xx never carries internals. */
export const errorHandlerPlugin = fp(async (app: FastifyInstance, options: { errors: ErrorReporter }) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // The route's pattern, not its URL: ids and query strings (codes, tokens) stay here.
    const report = (code: string) =>
      options.errors.exception(error, {
        tags: { source: 'request', code, method: request.method, route: request.routeOptions.url ?? 'unknown' },
      });
    if (error instanceof AppError) {
      // A provider that did not answer is an outage to hear about; a 503 is an answer by design (readiness, a form
      // that is turned off), polled by balancers, and would flood the reports.
      if (error.statusCode >= 500 && error.statusCode !== 503) report(error.code);
      return reply.status(error.statusCode).headers(error.headers).send(error.toBody());
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      // A malformed id in the path names no resource we have.
      if (error.validationContext === 'params') return reply.status(404).send(errorBody('not_found'));
      const fields = validationErrors(error);
      return reply.status(422).send(errorBody('validation_failed', Object.values(fields)[0]?.[0], fields));
    }
    const frameworkCode = error.code ? FRAMEWORK_CODES[error.code] : undefined;
    if (frameworkCode) {
      return reply.status(error.statusCode ?? 400).send(errorBody(frameworkCode));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.info({ err: error }, 'client error');
      return reply.status(error.statusCode).send(errorBody(error.statusCode === 404 ? 'not_found' : 'bad_request'));
    }
    request.log.error({ err: error }, 'unhandled error');
    report('internal');
    return reply.status(500).send(errorBody('internal'));
  });
});

/**
 * Fastify's `frameworkErrors`: what the router refuses before any route or hook runs (a path parameter over its
 * 100 characters, a malformed percent-encoding). Its own answers echo the path in another format; ours name no
 * resource, as for a malformed id.
 */
export function frameworkErrorAnswer(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return reply.status(404).send(errorBody('not_found'));
  return reply.status(400).send(errorBody('bad_request'));
}
