import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_COOKIE, LOCALE_COOKIE } from '@tipcard/shared/constants';
import { users } from '../../db/schema/users.ts';
import { t as translate } from '../../lib/i18n.ts';
import { receiveTip } from '../../test/sandbox-events.ts';
import { createTestApp, signUp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { writeWebDist } from '../../test/web-dist.ts';
import { FIRST_VIEW_SCRIPT_CSP_HASH } from '../web-shell/web-shell.service.ts';

let t: TestApp;
beforeAll(async () => {
  const webDist = writeWebDist();
  // No fee and a day's hold: a received tip is the hold's figure as it is.
  t = await createTestApp({ config: { webDist }, env: { FEE_PERCENT: '0', HOLD_HOURS: '24' } });
});
afterAll(() => t.close());

/** The home page as a browser with these cookies gets it. */
async function home(cookies: Record<string, string>) {
  const response = await t.call({ method: 'GET', url: '/', cookies });
  const html = response.body as string;
  const data = JSON.parse(/<script type="application\/json" id="tipcard-data">(.*?)<\/script>/.exec(html)![1]!);
  const figure = (balance: 'main' | 'hold') =>
    new RegExp(`data-boot-balance="${balance}">([^<]*)<`).exec(html)?.[1]?.replace(/\u00a0/g, ' ');
  return { response, html, data, main: figure('main'), hold: figure('hold') };
}

/** The plain skeleton: no figures drawn, no answers inlined, no script, cacheable for revalidation like any page. */
function expectPlainSkeleton(page: Awaited<ReturnType<typeof home>>) {
  expect(page.html).toContain('<div id="boot" class="boot-app"');
  expect(page.html).not.toContain('data-boot-balance');
  expect(page.html).toContain('<div id="boot" class="boot-app" aria-hidden="true">');
  expect(page.html).not.toMatch(/<script(?![^>]*\s(?:src=|type="application\/json"))[^>]*>/);
  expect(page.response.headers['cache-control']).toBe('no-cache');
}

describe("a signed-in visitor's home page", () => {
  it("draws the user's balances into the skeleton and carries the overview's first answers, for that user alone", async () => {
    const anna = await signUpWithCard(t, { public_name: 'Anna' });
    const boris = await signUpWithCard(t, { public_name: 'Boris' });
    await receiveTip(t, anna.cardId, 1_250);

    const page = await home({ [ACCESS_TOKEN_COOKIE]: anna.jwt, [LOCALE_COOKIE]: 'fr' });
    // In the language the app will start in, as its tiles write them.
    expect(page.main).toBe('0,00 €');
    expect(page.hold).toBe('12,50 €');
    expect(page.html).toContain(translate('overview:balance.main', undefined, 'fr').replace(/'/g, '&#39;'));
    expect(page.html).toContain('class="boot-app boot-first-view" data-locale="fr"');
    // The figures are what the API gives this user.
    const account = await t.call({ method: 'GET', url: `/api/clients/${anna.clientId}/account`, token: anna.jwt });
    expect(account.body.data.account_balances).toEqual(
      expect.arrayContaining([
        { type: 'hold', balance: 1_250 },
        { type: 'main', balance: 0 },
      ]),
    );
    // Kept by no cache; the answer depends on the cookie.
    expect(page.response.headers['cache-control']).toBe('private, no-store');
    expect(page.response.headers.vary).toBe('Accept-Language, Cookie');

    // Another user's token: their own figures; nothing of Anna's.
    const other = await home({ [ACCESS_TOKEN_COOKIE]: boris.jwt });
    expect(other.hold).toBe('€0.00');
    for (const trace of [anna.userId, anna.clientId, anna.cardId, anna.phone, 'Anna', '12.50', '12,50'])
      expect(other.html).not.toContain(trace);
    // Nothing received yet: the overview puts the QR card first, and so does the skeleton.
    expect(other.html).toContain('class="boot-app boot-first-view boot-first-card" data-locale="en"');
    expect(page.html).toContain('<div id="boot" class="boot-app boot-first-view" data-locale="fr"');
  });

  it('runs only the one inline script the CSP allows by its hash', async () => {
    const anna = await signUpWithCard(t);
    const page = await home({ [ACCESS_TOKEN_COOKIE]: anna.jwt });
    const scripts = [...page.html.matchAll(/<script>([^]*?)<\/script>/g)].map((match) => match[1]!);
    expect(scripts).toHaveLength(1);
    const hash = `'sha256-${createHash('sha256').update(scripts[0]!).digest('base64')}'`;
    expect(hash).toBe(FIRST_VIEW_SCRIPT_CSP_HASH);
    const csp = String(page.response.headers['content-security-policy']);
    expect(csp).toMatch(new RegExp(`script-src [^;]*${FIRST_VIEW_SCRIPT_CSP_HASH.replace(/[+/]/g, '\\$&')}`));
    expect(csp).not.toMatch(/script-src [^;]*'unsafe-inline'/);
  });

  it('gets no figures for a token that does not verify, has expired, or whose session ended', async () => {
    const anna = await signUpWithCard(t);
    await receiveTip(t, anna.cardId, 700);
    expectPlainSkeleton(await home({ [ACCESS_TOKEN_COOKIE]: 'not-a-token' }));
    // Anna's claims signed with another key: a forged cookie.
    const forged = await new SignJWT({ sv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(anna.userId)
      .setIssuer('tipcard')
      .setAudience('tipcard-api')
      .setIssuedAt(Math.floor(t.clock.now().getTime() / 1000))
      .setExpirationTime(Math.floor(t.clock.now().getTime() / 1000) + 600)
      .sign(new TextEncoder().encode('another-secret-that-is-long-enough-for-hs256'));
    expectPlainSkeleton(await home({ [ACCESS_TOKEN_COOKIE]: forged }));
    // A blocked user's session stands no more.
    const block = (blockedAt: Date | null) => t.app.db.update(users).set({ blockedAt }).where(eq(users.id, anna.userId));
    await block(t.clock.now());
    expectPlainSkeleton(await home({ [ACCESS_TOKEN_COOKIE]: anna.jwt }));
    await block(null);
    expect((await home({ [ACCESS_TOKEN_COOKIE]: anna.jwt })).hold).toBe('€7.00');
    // Past its 15 minutes the token is refused, here as on the API.
    t.clock.advance(16 * 60_000);
    expectPlainSkeleton(await home({ [ACCESS_TOKEN_COOKIE]: anna.jwt }));
  });

  it('gets no figures for a user the app does not open the overview for (no card yet)', async () => {
    const user = await signUp(t);
    expectPlainSkeleton(await home({ [ACCESS_TOKEN_COOKIE]: user.jwt }));
  });
});
