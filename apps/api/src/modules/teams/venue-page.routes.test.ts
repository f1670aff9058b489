import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import jsqr from 'jsqr';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPdf } from '../../lib/pdf-check.ts';
import { textOfPdf } from '../../test/pdf.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { signAccessToken } from '../auth/auth.service.ts';
import { createUserWithPrivateClient, setDeletion } from '../users/users.service.ts';
import { BOOT_SCRIPT_CSP_HASH } from '../web-shell/web-shell.service.ts';
import { teamFixtures, type Staff } from './teams.fixtures.ts';

/**
 * The venue's public page as the server renders it (the web app's own component, from its source as `vite build
 * --ssr` bundles it, into a built public.html) and the venue QR code and print sheet of its admin, on a clean database.
 */
let t: TestApp;
const PUBLIC_URL = 'https://tipcard.example';
const { staff, createWorkplace, join: joinTeam, later } = teamFixtures(() => t);

/** jsqr is CommonJS with an ES-style default: TypeScript sees the module object where Node hands over the function. */
const jsQR = ((jsqr as unknown as { default?: unknown }).default ?? jsqr) as typeof jsqr.default;

const dataOf = (html: string) => JSON.parse(/<script type="application\/json" id="tipcard-data">(.*?)<\/script>/.exec(html)![1]!);

beforeAll(async () => {
  const webDist = mkdtempSync(join(tmpdir(), 'tipcard-venue-'));
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'assets', 'public-x.css'), '.guest-page-css{color:red}');
  writeFileSync(
    join(webDist, 'public.html'),
    '<!doctype html><html lang="en"><head><title>Pay</title><meta name="description" content="x" /><script type="module" crossorigin src="/assets/public-x.js"></script><link rel="stylesheet" crossorigin href="/assets/public-x.css"></head><body><div id="root"></div></body></html>',
  );
  t = await createTestApp({
    env: { PUBLIC_URL },
    config: { webDist, webServerEntry: fileURLToPath(new URL('../../../../web/src/public-server.tsx', import.meta.url)) },
  });
});

afterAll(() => t.close());

let cardlessCount = 0;
/** A user with a token and no card of their own yet (phones apart from the fixtures', whose counter stays under 9000). */
async function withoutCard(): Promise<Staff> {
  cardlessCount += 1;
  const phone = `+3712${String(process.pid % 1000).padStart(3, '0')}9${String(cardlessCount).padStart(3, '0')}`;
  const { user, client } = await createUserWithPrivateClient(t.app.db, { phone, promoSource: null, referralCode: null });
  const jwt = await signAccessToken(t.app.services.keys, { userId: user.id, sessionVersion: 0 }, t.clock.now());
  return { userId: user.id, clientId: client.id, jwt, phone };
}

async function cardOf(person: Staff): Promise<string> {
  const cards = await t.call({ method: 'GET', url: `/api/clients/${person.clientId}/cards`, token: person.jwt });
  return cards.body.data[0].id;
}

/** A venue with its admin, two members with cards, one who left, one without a card and one whose account is deleted. */
async function venue() {
  const admin = await staff('Anna Bērziņa');
  const team = await createWorkplace(admin, 'Café <Rīga> & Co');
  const workplaceId = (await t.call({ method: 'GET', url: `/api/clients/${admin.clientId}/workplace`, token: admin.jwt })).body
    .data.id as string;
  const present = await staff('Jānis');
  const leaver = await staff('Left Leo');
  const deleted = await staff('Deleted Dana');
  const cardless = await withoutCard();
  for (const member of [present, leaver, deleted, cardless]) {
    await later(60_000, admin, member);
    await joinTeam(team.id, admin, member);
  }
  expect((await t.call({ method: 'POST', url: `/api/teams/${team.id}/leave`, token: leaver.jwt })).status).toBe(200);
  const deletedCard = await cardOf(deleted);
  // The account's deletion closes its memberships too; here the membership stays, so the page's own check is what hides it.
  await setDeletion(t.app.db, deleted.userId, { deletedAt: t.clock.now(), erasureDueAt: null });
  return { admin, team, workplaceId, present, leaver, deletedCard };
}

describe('the venue page, /venue/{workplaceId}', () => {
  it('lists each team and each current member with a card of their own, as links to their card pages', async () => {
    const { admin, team, workplaceId, present, leaver, deletedCard } = await venue();
    const page = await t.call({ method: 'GET', url: `/venue/${workplaceId}`, headers: { 'accept-language': 'en-GB' } });
    expect(page.status).toBe(200);
    const data = dataOf(page.body);
    expect(data.locale).toBe('en');
    expect(data.venue).toEqual({
      id: workplaceId,
      name: 'Café <Rīga> & Co',
      venue_card_id: null,
      teams: [{ team_id: team.id, title: 'Café <Rīga> & Co', card_id: team.card_id, member_count: 3 }],
      people: [
        { card_id: await cardOf(admin), public_name: 'Anna Bērziņa', image_url: null, team_title: 'Café <Rīga> & Co' },
        { card_id: await cardOf(present), public_name: 'Jānis', image_url: null, team_title: 'Café <Rīga> & Co' },
      ],
    });
    // Rendered: plain links, escaped names, a list per kind with its heading; no form, so nothing needs a script.
    expect(page.body).toContain(`href="/payment/${await cardOf(admin)}"`);
    expect(page.body).toContain(`href="/payment/${await cardOf(present)}"`);
    expect(page.body).toContain(`href="/payment/${team.card_id}"`);
    expect(page.body).toContain('Café &lt;Rīga&gt; &amp; Co');
    expect(page.body).toContain('Shared among 3 people');
    expect(page.body).toMatch(
      /<section aria-labelledby="[^"]+" data-testid="venue-people"><h2 id="[^"]+"[^>]*>A person<\/h2><ul/,
    );
    expect(page.body).toContain('role="img" aria-label="Photo of Jānis"');
    expect(page.body).not.toContain('<form');
    for (const absent of ['Left Leo', 'Deleted Dana', await cardOf(leaver), deletedCard]) expect(page.body).not.toContain(absent);
    // The member without a card is counted in the team but offered nowhere by name.
    expect(data.venue.people).toHaveLength(2);
    expect(page.body).not.toContain('data-testid="venue-everyone"');

    // Once the admin has made the venue card, the page offers everyone at the venue first, through it.
    const made = await t.call({ method: 'GET', url: `/api/workplaces/${workplaceId}/venue-card`, token: admin.jwt });
    expect(made.status).toBe(200);
    const withCard = await t.call({ method: 'GET', url: `/venue/${workplaceId}`, headers: { 'accept-language': 'en-GB' } });
    expect(dataOf(withCard.body).venue.venue_card_id).toBe(made.body.data.card_id);
    expect(withCard.body).toMatch(/data-testid="venue-everyone">.*Everyone here.*href="\/payment\/[0-9a-f-]{36}"/s);
    expect(withCard.body).toContain(`href="/payment/${made.body.data.card_id}"`);
  });

  it('is in the reader’s language, with its title, description and Open Graph tags in it, and links in that language', async () => {
    const { workplaceId, present } = await venue();
    const fr = await t.call({ method: 'GET', url: `/venue/${workplaceId}`, headers: { 'accept-language': 'fr-FR,fr;q=0.9' } });
    expect(fr.status).toBe(200);
    expect(fr.body).toContain('<html lang="fr"');
    expect(fr.body).toContain('<title>Pourboire pour l’équipe de Café &lt;Rīga&gt; &amp; Co — Tipcard</title>');
    expect(fr.body).toContain('<meta name="description" content="Choisissez à qui va votre pourboire');
    expect(fr.body).toContain('<meta property="og:locale" content="fr_FR" />');
    expect(fr.body).toContain(`<meta property="og:url" content="${PUBLIC_URL}/venue/${workplaceId}" />`);
    expect(fr.body).toContain(`href="/fr/payment/${await cardOf(present)}"`);
    expect(fr.body).toContain('Choisissez à qui va votre pourboire.');

    // The path's prefix decides, whatever the browser and the cookie say.
    const lv = await t.call({
      method: 'GET',
      url: `/lv/venue/${workplaceId}`,
      headers: { 'accept-language': 'fr-FR', cookie: 'locale=es' },
    });
    expect(lv.status).toBe(200);
    expect(lv.body).toContain('<html lang="lv"');
    expect(lv.body).toContain('Izvēlieties, kam būs jūsu dzeramnauda.');
    expect(lv.body).toContain(`href="/lv/payment/${await cardOf(present)}"`);
    const es = await t.call({ method: 'GET', url: `/venue/${workplaceId}`, headers: { cookie: 'locale=es' } });
    expect(es.body).toContain('<html lang="es"');
    expect(es.body).toContain('Se reparte entre 3 personas');
  });

  it('is public and cacheable: security headers, ETag, 304, and a script only after the first paint', async () => {
    const { workplaceId } = await venue();
    const page = await t.call({ method: 'GET', url: `/venue/${workplaceId}`, headers: { 'accept-language': 'es' } });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('public, max-age=30');
    expect(page.headers.vary).toContain('Accept-Language');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['content-security-policy']).toContain(`script-src 'self' ${BOOT_SCRIPT_CSP_HASH}`);
    expect(page.body).toContain('<style>.guest-page-css{color:red}</style>');
    expect(page.body).toMatch(/<script data-entry="\/assets\/public-x\.js">[^<]+<\/script>\s*<\/body>/);
    const etag = page.headers.etag as string;
    expect(etag).toMatch(/^W\//);
    const again = await t.call({
      method: 'GET',
      url: `/venue/${workplaceId}`,
      headers: { 'accept-language': 'es', 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    // Another language is another page.
    const fr = await t.call({
      method: 'GET',
      url: `/venue/${workplaceId}`,
      headers: { 'accept-language': 'fr', 'if-none-match': etag },
    });
    expect(fr.status).toBe(200);
  });

  it('answers an unknown or malformed id with 404 and the “no longer active” page', async () => {
    for (const url of [`/venue/${crypto.randomUUID()}`, '/venue/not-a-venue', `/fr/venue/${'x'.repeat(100)}`]) {
      const missing = await t.call({ method: 'GET', url });
      expect(missing.status).toBe(404);
      expect(dataOf(missing.body).venue).toBeNull();
      expect(missing.body).toMatch(/This link is no longer active|Ce lien n’est plus actif/);
    }
    expect((await t.call({ method: 'GET', url: `/venue/${'x'.repeat(101)}` })).status).toBe(404);
  });
});

describe('the venue QR code and print sheet', () => {
  it('gives the admin the PNG of the venue page’s QR code and a print sheet; 404 to anyone else', async () => {
    const { admin, workplaceId, present } = await venue();
    const png = await t.app.inject({
      method: 'GET',
      url: `/api/workplaces/${workplaceId}/qr.png`,
      headers: { authorization: `Bearer ${admin.jwt}` },
    });
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    const { data, info } = await sharp(png.rawPayload).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const rgba = new Uint8ClampedArray(data.buffer, data.byteOffset, data.length);
    expect(jsQR(rgba, info.width, info.height)?.data).toBe(`${PUBLIC_URL}/venue/${workplaceId}`);

    const pdf = await t.app.inject({
      method: 'GET',
      url: `/api/workplaces/${workplaceId}/print.pdf?locale=fr`,
      headers: { authorization: `Bearer ${admin.jwt}` },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(await checkPdf(pdf.rawPayload)).toBe('safe');
    const text = await textOfPdf(pdf.rawPayload);
    for (const expected of ['Café <Rīga> & Co', 'Choisissez une personne ou une équipe', `tipcard.example/venue/${workplaceId}`])
      expect(text).toContain(expected);

    const stranger = await staff('Stranger');
    for (const path of ['qr.png', 'print.pdf']) {
      for (const token of [present.jwt, stranger.jwt])
        expect((await t.call({ method: 'GET', url: `/api/workplaces/${workplaceId}/${path}`, token })).status).toBe(404);
      expect(
        (await t.call({ method: 'GET', url: `/api/workplaces/${crypto.randomUUID()}/${path}`, token: admin.jwt })).status,
      ).toBe(404);
      expect((await t.call({ method: 'GET', url: `/api/workplaces/${workplaceId}/${path}` })).status).toBe(401);
      expect((await t.call({ method: 'GET', url: `/api/workplaces/nope/${path}`, token: admin.jwt })).status).toBe(404);
    }
  });
});
