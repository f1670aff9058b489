import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorCode } from '@tipcard/shared/errors/error-codes';
import { NOT_BLANK_SERVER_TEXT, ruleVariables, type ValidationRule } from '@tipcard/shared/validation';
import { AppError, errorBody } from '../lib/app-error.ts';
import type { ErrorReporter } from '../lib/error-reporting.ts';
import { requestLocale, t } from '../lib/i18n.ts';

const FRAMEWORK_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'bad_request',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'bad_request',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad_request',
};

/**
 * Zod messages are `validation.{rule}` keys; the wire carries the English text, keyed by field, and for an empty
 * required field the spec's server message, which clients turn into their reader's words.
 */
function validationErrors(error: { validation: { instancePath: string; message?: string }[] }) {
  const fields: Record<string, string[]> = {};
  for (const issue of error.validation) {
    const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'body';
    const rule = issue.message?.startsWith('validation.')
      ? (issue.message.slice('validation.'.length) as ValidationRule)
      : 'valid';
    const message = rule === 'not_blank' ? NOT_BLANK_SERVER_TEXT : t(`validation.${rule}`, ruleVariables(rule, 'en'));
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
export function frameworkErrorAnswer(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 404 : 400;
  if (opensAPage(request)) return reply.status(status).type('text/html; charset=utf-8').send(brokenLinkPage(request));
  return reply.status(status).send(errorBody(status === 404 ? 'not_found' : 'bad_request'));
}

/** A browser opening a page (not a call to /api): it gets a page to read, not the API's JSON. */
function opensAPage(request: FastifyRequest): boolean {
  return request.method === 'GET' && !request.url.startsWith('/api') && (request.headers.accept ?? '').includes('text/html');
}

/** What a visitor sees for an address that cannot be read (a cut or mangled link): what to do, in their language. */
function brokenLinkPage(request: FastifyRequest): string {
  const locale = requestLocale(request);
  const text = (key: string) => t(`errors:${key}`, {}, locale).replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${text('not_found')}</title>
<style>body{margin:0;font:16px/1.5 system-ui,sans-serif;background:#f1f4f9;color:#0f172a}main{max-width:28rem;margin:15vh auto;padding:0 1.25rem;text-align:center}h1{font-size:1.35rem}a{display:inline-block;margin-top:1rem;padding:.75rem 1.25rem;border-radius:.75rem;background:#0b2a5b;color:#fff;text-decoration:none;font-weight:600}</style>
</head><body><main><h1>${text('not_found')}</h1><p>${text('not_found_text')}</p><a href="/">${text('go_home')}</a></main></body></html>`;
}
