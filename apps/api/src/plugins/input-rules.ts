import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isAcceptableText, normalizeText } from '@tipcard/shared/text-rules';
import { AppError } from '../lib/app-error.ts';
import { t } from '../lib/i18n.ts';

/**
 * How deeply a JSON body may nest objects and arrays. Our bodies nest a few levels; a body of thousands (a few
 * kilobytes of brackets) is refused with 400 before it is parsed, so nothing that walks bodies (this plugin, zod, a
 * service) can be made to overflow its stack.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * The text rule for every string the API accepts, whatever the route's schema says: a route added tomorrow with a
 * bare `z.string()` is covered too. Runs before validation, on the parsed body, query and path parameters; a string
 * that breaks the rule answers 422 on its field, the others are put in NFC. Raw bodies (webhooks) are buffers and
 * pass untouched, since their signatures cover the exact bytes.
 */
export const inputRulesPlugin = fp(async (app: FastifyInstance) => {
  // Fastify's own JSON parser, once the text is known to be shallow enough for everything that walks it afterwards.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonDepthExceeds(body as string, MAX_JSON_DEPTH)) {
      done(new AppError('bad_request'), undefined);
      return;
    }
    parseJson(request, body as string, done);
  });
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const badParams: string[] = [];
    // Query and params are objects of strings: cleaned in place. A body may be a bare string.
    clean(request.params, badParams);
    // As for a malformed id, a path that breaks the rule names no resource we have.
    if (badParams.length > 0) throw new AppError('not_found');
    const bad: string[] = [];
    clean(request.query, bad);
    request.body = clean(request.body, bad);
    if (bad.length > 0) {
      const message = t('validation.valid');
      throw new AppError('validation_failed', {
        message,
        validationErrors: Object.fromEntries(bad.map((field) => [field || 'body', [message]])),
      });
    }
  });
});

/**
 * Checks and normalises every string in a parsed value (objects, arrays), recording the paths of bad ones. It walks
 * with a stack of its own rather than by recursion: however deep a value a parser hands it, it runs out of nothing.
 * Strings in objects and arrays are replaced in place; a bare string is answered.
 */
export function clean(value: unknown, bad: string[]): unknown {
  if (typeof value === 'string') return cleanString(value, '', bad);
  // Each entry is a value still to visit, where it sits (to put its normal form back) and its field path.
  const stack: { holder: Record<string, unknown> | unknown[] | undefined; key: string; path: string; value: unknown }[] = [
    { holder: undefined, key: '', path: '', value },
  ];
  while (stack.length > 0) {
    const { holder, key, path, value: current } = stack.pop()!;
    if (holder !== undefined && !Array.isArray(holder) && !isAcceptableText(key)) bad.push(path);
    if (typeof current === 'string') {
      (holder as Record<string, unknown>)[key] = cleanString(current, path, bad);
    } else if (Array.isArray(current)) {
      // Pushed last to first, so fields are visited (and bad ones listed) in document order.
      for (let index = current.length - 1; index >= 0; index--) {
        stack.push({ holder: current, key: String(index), path: join(path, String(index)), value: current[index] });
      }
    } else if (current !== null && typeof current === 'object' && !Buffer.isBuffer(current)) {
      const object = current as Record<string, unknown>;
      const keys = Object.keys(object);
      for (let index = keys.length - 1; index >= 0; index--) {
        const name = keys[index]!;
        stack.push({ holder: object, key: name, path: join(path, name), value: object[name] });
      }
    }
  }
  return value;
}

function cleanString(value: string, path: string, bad: string[]): string {
  if (!isAcceptableText(value)) {
    bad.push(path);
    return value;
  }
  return normalizeText(value);
}

/**
 * Whether a JSON text nests objects and arrays deeper than `max`, found in one pass without parsing: brackets inside
 * strings do not count. Malformed text answers false and is left to the parser to refuse.
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (char === QUOTE) {
      // Jump to the closing quote: the next one not escaped by an odd run of backslashes.
      let end = index;
      for (;;) {
        end = text.indexOf('"', end + 1);
        if (end === -1) return false;
        let backslashes = 0;
        while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
        if (backslashes % 2 === 0) break;
      }
      index = end;
    } else if (char === OPEN_BRACE || char === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (char === CLOSE_BRACE || char === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** Field paths as the error handler names them: `holder.name`, `items.0`. */
const join = (path: string, key: string) => (path ? `${path}.${key}` : key);
