import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { onTestFinished, vi } from 'vitest';
import type { Locale } from '@tipcard/shared/constants';
import { setGuestLocale } from '../lib/guest-i18n.ts';

interface RenderGuestPageOptions {
  /** The URL the page opens at ("/invoice/{id}/success?payment=…"). */
  path?: string;
  locale?: Locale;
  /** The data the server inlines into the page it serves (`#tipcard-data`); none, as under `vite dev`, by default. */
  shell?: unknown;
}

/**
 * A guest page as the public entry shows it: no app providers (the guest pages have their own i18n instance and plain
 * fetch, which `fakeApi` answers), at its URL, with the server's inlined data when given. The browser's leaving for
 * another page (`location.assign`/`replace`, which jsdom cannot follow) is recorded in `left` instead.
 */
export function renderGuestPage(ui: ReactNode, options: RenderGuestPageOptions = {}) {
  const { path = '/', locale = 'en', shell } = options;
  setGuestLocale(locale, false);
  window.history.replaceState(null, '', path);
  if (shell !== undefined) {
    const data = document.createElement('script');
    data.id = 'tipcard-data';
    data.type = 'application/json';
    data.textContent = JSON.stringify(shell);
    document.head.append(data);
    onTestFinished(() => data.remove());
  }
  const left: string[] = [];
  const location = window.location;
  // A proxy of an empty object, not of the location itself, whose methods cannot be answered with others.
  vi.stubGlobal(
    'location',
    new Proxy(
      {},
      {
        get(_, key) {
          if (key === 'assign' || key === 'replace') return (url: string | URL) => left.push(String(url));
          const value: unknown = Reflect.get(location, key);
          return typeof value === 'function' ? (value as () => unknown).bind(location) : value;
        },
      },
    ),
  );
  onTestFinished(() => {
    vi.unstubAllGlobals();
    setGuestLocale('en', false);
  });
  return { ...render(ui), left };
}
