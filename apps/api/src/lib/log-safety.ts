import pino from 'pino';
import { SECRET_FIELDS } from '@tipcard/shared/redaction';

/** What the log never carries (DESIGN "logs"), wherever it appears in a logged object one level down. */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`]),
];

/** A failed query's error as the database describes it, or undefined for any other error. */
function databaseErrorIn(error: unknown): Record<string, unknown> | undefined {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const link = current as { query?: unknown; params?: unknown; code?: unknown; severity?: unknown; cause?: unknown };
    const isDatabaseError =
      'params' in link || (typeof link.code === 'string' && /^[0-9A-Z]{5}$/.test(link.code) && 'severity' in link);
    if (isDatabaseError) {
      // The SQLSTATE and the names of what was violated; never the message, detail or parameters, which hold values.
      let named = link as Record<string, unknown>;
      while (named.cause && typeof named.cause === 'object' && !('severity' in named))
        named = named.cause as Record<string, unknown>;
      const pick = (key: string) => (typeof named[key] === 'string' ? { [key]: named[key] } : {});
      // `sqlState`, not `code`: `*.code` is redacted as a sign-in code would be.
      const sqlState = typeof named.code === 'string' ? { sqlState: named.code } : {};
      return {
        type: 'DatabaseError',
        ...sqlState,
        ...pick('constraint'),
        ...pick('table'),
        ...pick('column'),
        ...pick('routine'),
      };
    }
    current = link.cause;
  }
  return undefined;
}

/** Pino's error serializer, except that a database error is logged with its SQLSTATE and constraint only. */
export function serializeError(error: Error): { type: string; message: string; stack: string; [key: string]: unknown } {
  const database = databaseErrorIn(error);
  if (!database) return pino.stdSerializers.err(error);
  const stack = (error.stack ?? '')
    .split('\n')
    .filter((line) => line.trimStart().startsWith('at '))
    .slice(0, 8)
    .join('\n');
  return { ...database, type: 'DatabaseError', message: 'a database query failed', stack };
}

/** Signed links carry their secret in the path (`/actions/{token}`, a monthly donor's e-mail links). */
const SECRET_IN_PATH = /(\/actions\/)[^/?#]+/g;

/** Fastify's request line (method, url, host, peer), with the secret of a signed link cut out of the url. */
export function serializeRequest(request: {
  method: string;
  url: string;
  hostname?: string;
  ip?: string;
  socket?: { remotePort?: number };
}) {
  return {
    method: request.method,
    url: request.url.replace(SECRET_IN_PATH, '$1[redacted]'),
    hostname: request.hostname,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** The logger options every process shares (server, worker): redaction and safe errors. */
export const safeLogOptions = {
  redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
  serializers: { err: serializeError, error: serializeError, req: serializeRequest },
};
