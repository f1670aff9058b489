import type { ErrorEvent, EventHint, NodeClient } from '@sentry/node';
import { redactFields, redactText } from '@tipcard/shared/redaction';
import { serializeError } from './log-safety.ts';

/**
 * Where a report came from: a request the error handler answered 500 (its method and route pattern, never its URL,
 * query, headers, cookies or body), a job's failed tick, a dead message.
 */
export interface ReportContext {
  tags: Record<string, string>;
  /** Ids and counts an operator needs; censored like the log (redactFields) before it leaves. */
  extra?: Record<string, unknown>;
}

/**
 * Error reporting (spec 7, DESIGN "logs"): what the server could not handle goes to Sentry when SENTRY_DSN is set,
 * with the log's redaction. Without a DSN every call does nothing, so callers never check.
 */
export interface ErrorReporter {
  exception(error: unknown, context: ReportContext): void;
  /** Something that failed without an exception of ours (a message that died after its last try). */
  message(text: string, context: ReportContext): void;
  /** Waits for reports on their way (at close), at most `timeoutMs`. */
  flush(timeoutMs?: number): Promise<boolean>;
}

export const noErrorReporter: ErrorReporter = { exception() {}, message() {}, flush: async () => true };

/**
 * The last word on what an event carries, whichever way it was made: a database error keeps only its SQLSTATE and
 * constraint (as in the log; a failed query's message lists its parameters), messages lose IBANs, phones and codes,
 * extras lose every field the log censors, and whatever an SDK might add about the request, the user or earlier
 * steps (headers, cookies, body, query string, breadcrumbs) is dropped.
 */
export function scrubEvent(event: ErrorEvent, hint: EventHint): ErrorEvent {
  const original = hint.originalException;
  const database = original instanceof Error ? serializeError(original) : undefined;
  for (const exception of event.exception?.values ?? []) {
    if (database?.type === 'DatabaseError') {
      exception.type = 'DatabaseError';
      exception.value = `a database query failed (SQLSTATE ${String(database.sqlState ?? 'unknown')}${database.constraint ? `, ${String(database.constraint)}` : ''})`;
    } else if (exception.value) {
      exception.value = redactText(exception.value);
    }
  }
  if (event.message) event.message = redactText(event.message);
  if (event.logentry?.message) event.logentry.message = redactText(event.logentry.message);
  if (event.request) event.request = { method: event.request.method, url: event.request.url?.split('?')[0] };
  if (event.extra) event.extra = redactFields(event.extra);
  delete event.user;
  delete event.breadcrumbs;
  return event;
}

/** Sentry's Node SDK, loaded only when a DSN is set: a client of our own, with no global hooks or instrumentation. */
export function createErrorReporter(options: { dsn: string; environment: string } | undefined): ErrorReporter {
  if (!options) return noErrorReporter;
  const client: Promise<NodeClient> = import('@sentry/node').then(({ NodeClient, defaultStackParser, makeNodeTransport }) => {
    const created = new NodeClient({
      dsn: options.dsn,
      environment: options.environment,
      // None of the default integrations: they would hook the process, read local variables or the request.
      integrations: [],
      transport: makeNodeTransport,
      stackParser: defaultStackParser,
      sendClientReports: false,
      beforeSend: scrubEvent,
    });
    created.init();
    return created;
  });
  // `originalException` is what beforeSend reads to tell a database error; only the global helpers set it themselves.
  const hintOf = (error: unknown, { tags, extra }: ReportContext) => ({
    originalException: error,
    captureContext: { tags, extra },
  });
  return {
    exception(error, context) {
      void client.then((sentry) => sentry.captureException(error, hintOf(error, context)));
    },
    message(text, context) {
      void client.then((sentry) => sentry.captureMessage(text, 'error', hintOf(undefined, context)));
    },
    async flush(timeoutMs = 2_000) {
      return (await client).flush(timeoutMs);
    },
  };
}
