import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ErrorEvent } from '@sentry/browser';
import { scrubBrowserEvent } from './error-reporting-client.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('browser error reporting', () => {
  it('asks for the DSN once, on the first error, and sends nothing when there is none', async () => {
    const fetch = vi.fn(
      async () =>
        new Response(JSON.stringify({ data: { dsn: null, environment: null } }), {
          headers: { 'content-type': 'application/json' },
        }),
    );
    vi.stubGlobal('fetch', fetch);
    const { installErrorReporting, reportError } = await import('./error-reporting.ts');
    installErrorReporting();
    expect(fetch).not.toHaveBeenCalled();
    reportError(new Error('first'), 'error_page');
    window.dispatchEvent(new Event('unhandledrejection'));
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    expect(fetch).toHaveBeenCalledWith('/api/error-reporting', { credentials: 'omit' });
  });

  it('keeps the page path only, and cuts phones, IBANs and codes out of the text', () => {
    const event = scrubBrowserEvent({
      type: undefined,
      message: 'code 123456 for +371 20 000 017',
      exception: { values: [{ type: 'Error', value: 'tip to LV80BANK0000435195001 failed' }] },
      request: { url: 'https://tipcard.example/payment/abc?code=123456#/x', headers: { cookie: 'a=b' } },
      extra: { iban: 'LV80BANK0000435195001', page: '/payment/abc' },
      user: { ip_address: '10.0.0.1' },
      breadcrumbs: [{ message: 'clicked' }],
    } as ErrorEvent);
    expect(event).toEqual({
      type: undefined,
      message: 'code [redacted] for [redacted]',
      exception: { values: [{ type: 'Error', value: 'tip to [redacted] failed' }] },
      request: { url: 'https://tipcard.example/payment/abc' },
      extra: { iban: '[redacted]', page: '/payment/abc' },
    });
  });
});
