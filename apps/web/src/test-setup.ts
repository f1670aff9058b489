import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import { LOCALES } from '@tipcard/shared/constants';
import { loadGuestLocale } from './lib/guest-i18n.ts';

// The guest pages load a language's texts when it is asked for; a test renders in any language at once.
await Promise.all(LOCALES.map(loadGuestLocale));

// jsdom lays nothing out, so it has no scrolling: a page that scrolls a step into view does nothing here.
Element.prototype.scrollIntoView ??= function scrollIntoView() {};

afterEach(() => {
  cleanup();
  document.cookie.split(';').forEach((cookie) => {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; path=/; max-age=0`;
  });
});
