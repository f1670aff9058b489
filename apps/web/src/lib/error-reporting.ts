import type { ErrorReportingInfo } from '@tipcard/shared/site/schemas';

type Send = (error: unknown, tags: Record<string, string>) => void;

let sender: Promise<Send | undefined> | undefined;

/**
 * Loads Sentry's browser SDK the first time an error is reported, and only if the server has a DSN: pages that
 * never fail (nearly all) fetch and load nothing, so it costs the guest page's first load a few hundred bytes.
 */
function loadSender(): Promise<Send | undefined> {
  sender ??= fetch('/api/error-reporting', { credentials: 'omit' })
    .then((answer) => (answer.ok ? (answer.json() as Promise<{ data: ErrorReportingInfo }>) : undefined))
    .then(async (body) => {
      const dsn = body?.data.dsn;
      if (!dsn) return undefined;
      const { createSender } = await import('./error-reporting-client.ts');
      return createSender({ ...body.data, dsn });
    })
    .catch(() => undefined);
  return sender;
}

/** Reports an error the app could not handle (the error page, a chunk that failed to load); never throws. */
export function reportError(error: unknown, source: string): void {
  void loadSender().then((send) => send?.(error, { source }));
}

/** Uncaught errors and unhandled rejections of any entry (app, guest pages, back office). */
export function installErrorReporting(): void {
  window.addEventListener('error', (event) => reportError(event.error ?? event.message, 'uncaught'));
  window.addEventListener('unhandledrejection', (event) => reportError(event.reason, 'unhandled_rejection'));
}
