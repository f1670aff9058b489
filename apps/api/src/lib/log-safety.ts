import pino from 'pino';

/**
 * What the log never carries (DESIGN "logs"): tokens, codes, bank details, phone numbers and identity details,
 * wherever they appear in a logged object one level down (`{ body: { iban } }`, `{ method: { bic } }`).
 */
export const SECRET_FIELDS = [
  'password', 'code', 'refreshToken', 'refresh_token', 'jwt', 'token', 'authorization',
  'iban', 'bic', 'account_number', 'sort_code', 'holder_last_name', 'holder_name',
  'phone', 'username', 'recipient', 'email',
  'first_name', 'last_name', 'birthday', 'personal_code', 'address', 'representative_name', 'representative_birthday',
];
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`]),
];

/** A failed query's error as the database describes it, or undefined for any other error. */
export function databaseErrorIn(error: unknown): Record<string, unknown> | undefined {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const link = current as { query?: unknown; params?: unknown; code?: unknown; severity?: unknown; cause?: unknown };
    const isDatabaseError = 'params' in link || (typeof link.code === 'string' && /^[0-9A-Z]{5}$/.test(link.code) && 'severity' in link);
    if (isDatabaseError) {
      // The SQLSTATE and the names of what was violated; never the message, detail or parameters, which hold values.
      let named = link as Record<string, unknown>;
      while (named.cause && typeof named.cause === 'object' && !('severity' in named)) named = named.cause as Record<string, unknown>;
      const pick = (key: string) => (typeof named[key] === 'string' ? { [key]: named[key] } : {});
      // `sqlState`, not `code`: `*.code` is redacted as a sign-in code would be.
      const sqlState = typeof named.code === 'string' ? { sqlState: named.code } : {};
      return { type: 'DatabaseError', ...sqlState, ...pick('constraint'), ...pick('table'), ...pick('column'), ...pick('routine') };
    }
    current = link.cause;
  }
  return undefined;
}

/** Pino's error serializer, except that a database error is logged with its SQLSTATE and constraint only. */
export function serializeError(error: Error): { type: string; message: string; stack: string; [key: string]: unknown } {
  const database = databaseErrorIn(error);
  if (!database) return pino.stdSerializers.err(error);
  const stack = (error.stack ?? '').split('\n').filter((line) => line.trimStart().startsWith('at ')).slice(0, 8).join('\n');
  return { ...database, type: 'DatabaseError', message: 'a database query failed', stack };
}

/** The logger options every process shares (server, worker): redaction and safe errors. */
export const safeLogOptions = {
  redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
  serializers: { err: serializeError, error: serializeError },
};

const SECRET_FIELD_SET = new Set(SECRET_FIELDS.map((field) => field.toLowerCase()));

/**
 * The same rule for data that leaves by another way than the log (error reports, DESIGN "logs"): every field named
 * above is censored at any depth, and free text loses what looks like an IBAN, a phone number or a code, since an
 * error's message can quote a value (a driver's "invalid input syntax for type integer: \"+37120000000\"").
 */
export function redactFields<T>(value: T, depth = 0): T {
  if (depth > 8 || value === null || typeof value !== 'object') return typeof value === 'string' ? (redactText(value) as T) : value;
  if (Array.isArray(value)) return value.map((item) => redactFields(item, depth + 1)) as T;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, SECRET_FIELD_SET.has(key.toLowerCase()) ? '[redacted]' : redactFields(item, depth + 1)]),
  ) as T;
}

/**
 * IBANs (two letters, two digits, 10-30 more), and any run of six or more digits (phones, codes, personal codes);
 * UUIDs (our ids, which name no one) are kept whole.
 */
export function redactText(text: string): string {
  return text
    .split(/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i)
    .map((part, index) =>
      index % 2 === 1 ? part : part.replace(/\b[A-Z]{2}\d{2}(?:\s?[A-Z0-9]){10,30}\b/gi, '[redacted]').replace(/\+?\d(?:[\s.-]?\d){5,}/g, '[redacted]'),
    )
    .join('');
}
