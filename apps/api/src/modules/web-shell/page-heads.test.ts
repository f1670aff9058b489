import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t as text } from '../../lib/i18n.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { SITE_PAGES } from '@tipcard/shared/site/pages';
import { pageMetaOf } from '../site/site.service.ts';
import { OG_LOCALES } from './web-shell.service.ts';

/**
 * What a messenger shows of a shared link: every server-rendered page's head (title, description, Open Graph) in
 * the page's language, whether its path names it or the visitor's cookie or browser does.
 */
let t: TestApp;
let tipCard: string;
let charityCard: string;
let invoiceId: string;

beforeAll(async () => {
  const webDist = mkdtempSync(join(tmpdir(), 'tipcard-heads-'));
  mkdirSync(join(webDist, 'assets'));
  const head = '<meta name="description" content="x" /><title>Tipcard</title>';
  writeFileSync(
    join(webDist, 'index.html'),
    `<!doctype html><html lang="en"><head>${head}</head><body><div id="root"></div></body></html>`,
  );
  writeFileSync(
    join(webDist, 'public.html'),
    `<!doctype html><html lang="en"><head>${head}</head><body><div id="root"></div></body></html>`,
  );
  t = await createTestApp({
    config: { webDist, webServerEntry: fileURLToPath(new URL('../../../../web/src/public-server.tsx', import.meta.url)) },
  });
  tipCard = (await signUpWithCard(t, { public_name: 'Anna' })).cardId;
  charityCard = (await signUpWithCard(t, { public_name: 'Zoo', activity_type: 'DONATION' })).cardId;
  const staff = await signUpWithCard(t, { public_name: 'Marta' });
  const created = await t.call({
    method: 'POST',
    url: `/api/clients/${staff.clientId}/invoices`,
    token: staff.jwt,
    payload: { description: 'Photos de mariage', amount_cents: 12_000 },
  });
  invoiceId = created.body.data.id;
});
afterAll(() => t.close());

const attribute = (html: string, pattern: RegExp) => pattern.exec(html)?.[1];

/** The head as a link preview reads it. */
function headOf(html: string) {
  return {
    lang: attribute(html, /<html lang="([^"]*)"/),
    title: attribute(html, /<title>([^<]*)<\/title>/),
    description: attribute(html, /<meta name="description" content="([^"]*)"/),
    ogTitle: attribute(html, /<meta property="og:title" content="([^"]*)"/),
    ogDescription: attribute(html, /<meta property="og:description" content="([^"]*)"/),
    ogLocale: attribute(html, /<meta property="og:locale" content="([^"]*)"/),
  };
}

const escaped = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** A French head with this title and description, which are not the English ones. */
function expectFrench(html: string, title: string, description: string, english: { title: string; description: string }) {
  expect(title).not.toBe(english.title);
  expect(headOf(html)).toEqual({
    lang: 'fr',
    title: escaped(title),
    description: escaped(description),
    ogTitle: escaped(title),
    ogDescription: escaped(description),
    ogLocale: 'fr_FR',
  });
  if (description !== english.description) expect(headOf(html).description).not.toBe(escaped(english.description));
}

/** The page by its French path, and unprefixed for a visitor whose browser or stored choice is French. */
async function inFrench(path: string): Promise<string[]> {
  const pages = [
    await t.app.inject({ method: 'GET', url: `/fr${path}` }),
    await t.app.inject({ method: 'GET', url: path, headers: { 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.5' } }),
    await t.app.inject({ method: 'GET', url: path, headers: { cookie: 'locale=fr', 'accept-language': 'en' } }),
  ];
  for (const page of pages) expect(page.headers['content-type']).toMatch(/^text\/html/);
  return pages.map((page) => page.body);
}

describe('server-rendered pages, opened in French', () => {
  it('the guest tip page', async () => {
    for (const html of await inFrench(`/payment/${tipCard}`))
      expectFrench(html, text('payment:meta.title', { name: 'Anna' }, 'fr'), text('payment:meta.description', {}, 'fr'), {
        title: text('payment:meta.title', { name: 'Anna' }, 'en'),
        description: text('payment:meta.description', {}, 'en'),
      });
  });

  it('the donation page of a charity card', async () => {
    for (const html of await inFrench(`/payment/${charityCard}`))
      expectFrench(html, text('payment:meta.title', { name: 'Zoo' }, 'fr'), text('payment:meta.description', {}, 'fr'), {
        title: text('payment:meta.title', { name: 'Zoo' }, 'en'),
        description: text('payment:meta.description', {}, 'en'),
      });
  });

  it("the invoice page: its title names the payee in French, its description is the payee's own text", async () => {
    const pages = await inFrench(`/invoice/${invoiceId}`);
    for (const html of pages)
      expectFrench(html, text('payment:invoice.meta_title', { name: 'Marta' }, 'fr'), 'Photos de mariage', {
        title: text('payment:invoice.meta_title', { name: 'Marta' }, 'en'),
        description: 'Photos de mariage',
      });
    // The page the script hydrates is in the head's language.
    for (const html of pages) expect(html).toContain('"locale":"fr"');
  });

  it('an unknown invoice says it is no longer active, in French too', async () => {
    const [html] = await inFrench(`/invoice/${crypto.randomUUID()}`);
    expectFrench(html!, text('payment:meta.generic_title', {}, 'fr'), text('payment:meta.description', {}, 'fr'), {
      title: text('payment:meta.generic_title', {}, 'en'),
      description: text('payment:meta.description', {}, 'en'),
    });
  });

  it("a monthly donor's /actions page", async () => {
    const pages = await inFrench(`/actions/${'ab'.repeat(32)}`);
    for (const html of pages)
      expectFrench(html, text('payment:action.meta_title', {}, 'fr'), text('payment:meta.description', {}, 'fr'), {
        title: text('payment:action.meta_title', {}, 'en'),
        description: text('payment:meta.description', {}, 'en'),
      });
  });

  it('the landing page', async () => {
    const html = (await t.app.inject({ method: 'GET', url: '/fr' })).body;
    const { title, description } = pageMetaOf('/', 'fr');
    expectFrench(html, title, description, pageMetaOf('/', 'en'));
  });

  it('every page of the public site, in each language its path names', async () => {
    for (const locale of ['lv', 'fr', 'es'] as const) {
      for (const path of SITE_PAGES) {
        const html = (await t.app.inject({ method: 'GET', url: path === '/' ? `/${locale}` : `/${locale}${path}` })).body;
        const { title, description } = pageMetaOf(path, locale);
        expect(headOf(html)).toEqual({
          lang: locale,
          title: escaped(title),
          description: escaped(description),
          ogTitle: escaped(title),
          ogDescription: escaped(description),
          ogLocale: OG_LOCALES[locale],
        });
      }
    }
  });

  it("an unprefixed page that takes the visitor's language says so to caches", async () => {
    const page = await t.app.inject({ method: 'GET', url: `/invoice/${invoiceId}`, headers: { 'accept-language': 'fr' } });
    expect(page.headers.vary).toMatch(/Accept-Language/);
    expect(page.headers.vary).toMatch(/Cookie/);
  });
});
