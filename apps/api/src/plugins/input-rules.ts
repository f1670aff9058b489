import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isAcceptableText, normalizeText } from '@tipcard/shared/text-rules';
import { AppError } from '../lib/app-error.ts';
import { t } from '../lib/i18n.ts';

/**
 * The text rule for every string the API accepts, whatever the route's schema says: a route added tomorrow with a
 * bare `z.string()` is covered too. Runs before validation, on the parsed body, query and path parameters; a string
 * that breaks the rule answers 422 on its field, the others are put in NFC. Raw bodies (webhooks) are buffers and
 * pass untouched, since their signatures cover the exact bytes.
 */
export const inputRulesPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const badParams: string[] = [];
    // Query and params are objects of strings: cleaned in place. A body may be a bare string.
    clean(request.params, '', badParams);
    // As for a malformed id, a path that breaks the rule names no resource we have.
    if (badParams.length > 0) throw new AppError('not_found');
    const bad: string[] = [];
    clean(request.query, '', bad);
    request.body = clean(request.body, '', bad);
    if (bad.length > 0) {
      const message = t('validation.valid');
      throw new AppError('validation_failed', { message, validationErrors: Object.fromEntries(bad.map((field) => [field || 'body', [message]])) });
    }
  });
});

/** Checks and normalises every string in a parsed JSON value (objects, arrays), recording the paths of bad ones. */
function clean(value: unknown, path: string, bad: string[]): unknown {
  if (typeof value === 'string') {
    if (!isAcceptableText(value)) {
      bad.push(path);
      return value;
    }
    return normalizeText(value);
  }
  if (Array.isArray(value)) return value.map((item, index) => clean(item, join(path, String(index)), bad));
  if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
    const object = value as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      if (!isAcceptableText(key)) bad.push(join(path, key));
      object[key] = clean(object[key], join(path, key), bad);
    }
    return object;
  }
  return value;
}

/** Field paths as the error handler names them: `holder.name`, `items.0`. */
const join = (path: string, key: string) => (path ? `${path}.${key}` : key);
