import { BrowserClient, defaultStackParser, makeFetchTransport, type ErrorEvent } from '@sentry/browser';
import { redactFields, redactText } from '@tipcard/shared/redaction';
import type { ErrorReportingInfo } from '@tipcard/shared/site/schemas';

/**
 * What leaves the browser: the page's path (never its query or hash, which can hold codes and tokens), the error's
 * type and stack, its text with IBANs, phones and codes cut out. No breadcrumbs, user or request headers.
 */
export function scrubBrowserEvent(event: ErrorEvent): ErrorEvent {
  for (const exception of event.exception?.values ?? []) {
    if (exception.value) exception.value = redactText(exception.value);
  }
  if (event.message) event.message = redactText(event.message);
  if (event.request) event.request = { url: event.request.url?.split(/[?#]/)[0] };
  if (event.extra) event.extra = redactFields(event.extra);
  delete event.user;
  delete event.breadcrumbs;
  return event;
}

/**
 * Sentry's browser client, in a chunk of its own that error-reporting.ts loads on the first error. A client of our
 * own with no integrations: our listeners decide what is reported, and nothing records clicks, console lines or
 * requests.
 */
export function createSender(info: ErrorReportingInfo & { dsn: string }) {
  const client = new BrowserClient({
    dsn: info.dsn,
    environment: info.environment ?? undefined,
    integrations: [],
    transport: makeFetchTransport,
    stackParser: defaultStackParser,
    sendClientReports: false,
    beforeSend: scrubBrowserEvent,
  });
  client.init();
  return (error: unknown, tags: Record<string, string>) => {
    client.captureException(error, {
      originalException: error,
      captureContext: { tags, extra: { page: window.location.pathname } },
    });
  };
}
