import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_COOKIE, LOCALES } from '@tipcard/shared/constants';
import { SITE_PAGES } from '@tipcard/shared/site/pages';
import { t as translate } from '../../lib/i18n.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { writeWebDist } from '../../test/web-dist.ts';
import { SIGNED_IN_PRELOADS_FILE } from '../web-shell/web-shell.service.ts';
import { pageKeyOf } from './site.service.ts';

const CARD = '4b1d2c3e-1111-4222-8333-444455556666';
let t: TestApp;
beforeAll(async () => {
  // The web app's own page, with the signed-in files as a build lists them.
  const webDist = writeWebDist();
  mkdirSync(join(webDist, '.vite'));
  writeFileSync(join(webDist, SIGNED_IN_PRELOADS_FILE), JSON.stringify(['/assets/signed-in-x.js', '/assets/overview-page-x.js']));
  // The app's entry as the build names it, and the landing page's own script in the build's manifest.
  const index = join(webDist, 'index.html');
  writeFileSync(
    index,
    readFileSync(index, 'utf8').replace(
      '<script type="module" src="/src/main.tsx"></script>',
      '<script type="module" crossorigin src="/assets/index-x.js"></script>',
    ),
  );
  writeFileSync(
    join(webDist, '.vite', 'manifest.json'),
    JSON.stringify({ 'src/landing-island.ts': { file: 'assets/landing-island-x.js', isEntry: true } }),
  );
  t = await createTestApp({
    config: {
      webDist,
      publicUrl: 'https://tipcard.test',
      webLandingEntry: fileURLToPath(new URL('../../../../web/src/landing-server.tsx', import.meta.url)),
    },
    env: {
      COMPANY_NAME: 'Example Payments SIA',
      COMPANY_LICENCE: 'PI-42',
      SUPPORT_EMAIL: 'help@tipcard.test',
      SOCIAL_INSTAGRAM_URL: 'https://instagram.com/tipcard',
      SHORT_LINKS: `tip=${CARD}, bar=${CARD}`,
    },
  });
});
afterAll(() => t.close());

describe('the public pages in their path form', () => {
  it('answer every page in every language with its title, description, language, canonical and hreflang alternates', async () => {
    for (const locale of LOCALES) {
      for (const page of SITE_PAGES) {
        const url = locale === 'en' ? page : page === '/' ? `/${locale}` : `/${locale}${page}`;
        const response = await t.call({ method: 'GET', url });
        expect(response.status, url).toBe(200);
        const html = response.body as string;
        const title = translate(`marketing.meta.${pageKeyOf(page)}.title`, undefined, locale);
        expect(title).not.toContain('marketing.meta');
        expect(html).toContain(`<html lang="${locale}"`);
        expect(html).toContain(`<title>${title.replace(/'/g, '&#39;')}</title>`);
        expect(html).toContain(`<link rel="canonical" href="https://tipcard.test${url}" />`);
        expect(html).toContain(`hreflang="lv" href="https://tipcard.test${page === '/' ? '/lv' : `/lv${page}`}"`);
        expect(html).toContain(`hreflang="x-default" href="https://tipcard.test${page}"`);
        expect(html).toContain('<meta property="og:title"');
      }
    }
  });

  it('answer the landing page rendered in its language with the CSS inlined, the other pages for the app to render', async () => {
    const landing = (await t.call({ method: 'GET', url: '/fr' })).body as string;
    const hero = translate('landing:hero.title', undefined, 'fr');
    expect(hero).not.toContain('hero.title');
    expect(landing).toMatch(new RegExp(`<div id="root"><div[^]*<h1[^>]*>${hero}</h1>`));
    expect(landing).toContain('<style>.app-css{color:red}</style>');
    expect(landing).not.toContain('rel="stylesheet"');
    // Unprefixed, the app shows the visitor's language: rendered only when it is English, else left to the app.
    expect((await t.call({ method: 'GET', url: '/', headers: { 'accept-language': 'en-US,en;q=0.9' } })).body).toContain('<h1');
    const french = (await t.call({ method: 'GET', url: '/', headers: { 'accept-language': 'fr-FR,fr;q=0.9' } })).body as string;
    expect(french).toContain('<div id="root"></div>');
    const about = (await t.call({ method: 'GET', url: '/fr/about' })).body as string;
    expect(about).toContain('<div id="root"></div>');
    expect(about).toContain('rel="stylesheet"');
  });

  it('draw the cookie banner into the landing page, in its language, until the visitor has chosen', async () => {
    const label = translate('cookies:banner.label', undefined, 'fr');
    const text = translate('cookies:banner.text', undefined, 'fr');
    expect(text).not.toContain('banner.text');
    const escaped = (value: string) => value.replace(/'/g, '&#x27;').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const response = await t.call({ method: 'GET', url: '/fr' });
    expect(response.headers.vary).toBe('Cookie');
    expect(response.body).toMatch(
      // After the page, where the app draws it: before the snackbar's live region.
      new RegExp(`<section aria-label="${escaped(label)}"[^>]*>[^]*<p[^>]*>${escaped(text)}</p>[^]*</section><div aria-live=`),
    );
    expect(response.body).toContain(`>${translate('cookies:banner.reject', undefined, 'fr')}</button>`);
    const chosen = (await t.call({ method: 'GET', url: '/fr', cookies: { consent_chosen: '1' } })).body as string;
    expect(chosen).toMatch(/<h1/);
    expect(chosen).not.toContain(`aria-label="${label}"`);
    expect((await t.call({ method: 'GET', url: '/' })).headers.vary).toBe('Accept-Language, Cookie');
  });

  it("start the landing's own script after its paint, naming the app's entry for when the visitor goes into the app", async () => {
    const landing = (await t.call({ method: 'GET', url: '/fr' })).body as string;
    expect(landing).toMatch(
      /<script data-entry="\/assets\/index-x\.js" data-island="\/assets\/landing-island-x\.js">[^<]+<\/script>/,
    );
    expect(landing).not.toContain('src="/assets/index-x.js"');
    // What that script opens, drawn by the app's components in the page's language (decision 0065).
    for (const part of ['site-menu', 'languages', 'cookie-settings', 'cookie-saved'])
      expect(landing).toContain(`<template data-landing-part="${part}">`);
    expect(landing).toContain(`>${translate('cookies:settings.save', undefined, 'fr')}</button>`);
    expect(landing).toContain('data-snackbar-region=""');
    // Other pages start the app itself.
    expect((await t.call({ method: 'GET', url: '/fr/about' })).body).toContain('src="/assets/index-x.js"');
  });

  it("answer a signed-in visitor's home page with the signed-in layout's skeleton painted before any file arrives", async () => {
    const response = await t.call({ method: 'GET', url: '/fr', cookies: { [ACCESS_TOKEN_COOKIE]: 'a-token' } });
    const html = response.body as string;
    // Not the landing, which such a visitor never sees: the frame with the logo and the overview's first blocks.
    expect(html).toContain('<html lang="fr"');
    expect(html).toContain('<div id="root"></div>');
    expect(html).toMatch(/<div id="boot" class="boot-app"[^>]*>[^]*<svg[^]*Tipcard[^]*class="boot-nav"[^]*class="boot-tiles"/);
    // Styled inline; the app's stylesheet comes after the skeleton, where it holds only what follows it.
    const stylesheet = html.indexOf('<link rel="stylesheet" crossorigin href="/assets/index-x.css">');
    expect(html.indexOf('.boot-app .boot-tiles')).toBeGreaterThan(html.indexOf('<div id="boot"'));
    expect(stylesheet).toBeGreaterThan(html.indexOf('.boot-app .boot-tiles'));
    expect(html.match(/rel="stylesheet"/g)).toHaveLength(1);
    // The signed-in files load beside the entry, named in the head.
    expect(html.slice(0, html.indexOf('</head>'))).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/signed-in-x.js">\n  <link rel="modulepreload" crossorigin href="/assets/overview-page-x.js">',
    );
    expect(response.headers.vary).toBe('Cookie');
    expect(response.headers['cache-control']).toBe('no-cache');
    // Under the site's CSP: inline styles are allowed, and the page has no inline script (data only, not run).
    expect(String(response.headers['content-security-policy'])).toMatch(/style-src [^;]*'unsafe-inline'/);
    expect(html).not.toMatch(/<script(?![^>]*\s(?:src=|type="application\/json"))[^>]*>/);
    // Without the session's cookie the home page is the landing, its skeleton the plain one.
    const guest = (await t.call({ method: 'GET', url: '/fr' })).body as string;
    expect(guest).toContain('<div id="boot" aria-hidden="true">');
    expect(guest).not.toContain('modulepreload');
  });

  it('inline the configured site details, leaving unset ones null', async () => {
    const html = (await t.call({ method: 'GET', url: '/fr/contacts' })).body as string;
    const data = JSON.parse(/<script type="application\/json" id="tipcard-data">(.*?)<\/script>/.exec(html)![1]!);
    expect(data.site).toMatchObject({
      company: { name: 'Example Payments SIA', licence: 'PI-42', registration_number: null, address: null },
      support: { email: 'help@tipcard.test', phone: null },
      social: { instagram: 'https://instagram.com/tipcard', facebook: null, tiktok: null },
    });
  });

  it('serve GET /api/site with the same details, cacheable', async () => {
    const response = await t.call({ method: 'GET', url: '/api/site' });
    expect(response.body.data.company.name).toBe('Example Payments SIA');
    expect(response.body.data.contact_form).toBe(true);
    expect(response.headers['cache-control']).toBe('public, max-age=300');
  });
});

describe('short links', () => {
  it('redirect to the payment page of their card, keeping the query', async () => {
    const tip = await t.call({ method: 'GET', url: '/tip' });
    expect(tip.status).toBe(302);
    expect(tip.headers.location).toBe(`/payment/${CARD}`);
    expect((await t.call({ method: 'GET', url: '/bar?advert=poster' })).headers.location).toBe(`/payment/${CARD}?advert=poster`);
  });

  it('leave other paths to the app', async () => {
    expect((await t.call({ method: 'GET', url: '/donate' })).status).toBe(200);
  });
});
