import { expect, test, type APIRequestContext, type Page } from './fixtures.ts';
import { a11yProblems, createStaffWithCard, readCode, type Staff } from './helpers.ts';

/**
 * Settings on a phone (390×844), in English and in French: the notification choices, download my data, delete an
 * account with a zero balance, come back within 30 days and restore it.
 */

/** One code a minute per phone: signing in again waits for the sign-up code's minute to pass. */
const CODE_WAIT_MS = 61_000;

async function useSession(page: Page, baseURL: string, tokens: { jwt: string; refreshToken: string }) {
  const { hostname } = new URL(baseURL);
  await page.context().addCookies([
    { name: 'qtfo__token', value: tokens.jwt, domain: hostname, path: '/' },
    { name: 'refresh__key', value: tokens.refreshToken, domain: hostname, path: '/' },
  ]);
}

async function apiSignIn(request: APIRequestContext, phone: string) {
  expect((await request.post('/api/request-otp', { data: { username: phone } })).ok()).toBeTruthy();
  const signed = await request.post('/api/login_check', {
    data: { username: phone, password: await readCode(request, phone, 1) },
  });
  const data = ((await signed.json()) as { data: { jwt: string; refresh_token: string } }).data;
  return { jwt: data.jwt, refreshToken: data.refresh_token };
}

const TEXTS = {
  en: {
    prefix: '',
    settings: 'Settings',
    download: 'Download my data',
    deleteButton: 'Delete account',
    confirm: 'Delete your account?',
    yes: 'Yes, delete',
    restoreTitle: 'Restore your account?',
    restore: 'Restore my account',
    notify: 'Text me when support answers a ticket',
    notifyPayouts: 'Text me when a withdrawal is paid or comes back from the bank',
    deleted: 'Your account has been deleted. You can restore it until',
  },
  fr: {
    prefix: '/fr',
    settings: 'Paramètres',
    download: 'Télécharger mes données',
    deleteButton: 'Supprimer le compte',
    confirm: 'Supprimer votre compte ?',
    yes: 'Oui, supprimer',
    restoreTitle: 'Restaurer votre compte ?',
    restore: 'Restaurer mon compte',
    notify: 'M’envoyer un SMS quand l’assistance répond à un ticket',
    notifyPayouts: 'M’envoyer un SMS quand un retrait est versé ou renvoyé par la banque',
    deleted: 'Votre compte a été supprimé. Vous pouvez le restaurer jusqu’au',
  },
} as const;

for (const [locale, text] of Object.entries(TEXTS)) {
  test(`account in ${locale}: download my data, delete with a zero balance, restore within 30 days`, async ({
    page,
    playwright,
    baseURL,
  }) => {
    test.setTimeout(150_000);
    const request = await playwright.request.newContext({ baseURL: baseURL! });
    const staff: Staff = await createStaffWithCard(request);
    const signedUpAt = Date.now();
    await page.context().addInitScript(() => {
      localStorage.setItem('Functional:accepted', 'true');
      localStorage.setItem('GDPR:accepted', 'false');
    });
    await useSession(page, baseURL!, staff);
    await page.goto(`/#${text.prefix}/settings`);
    await expect(page.getByRole('heading', { name: text.settings, level: 1 })).toBeVisible();
    await expect(page.getByTestId('settings-phone')).toHaveText(staff.phone);
    expect(await a11yProblems(page, { every: true })).toEqual([]);

    // Texts about support answers can be turned off, and the choice is kept.
    const notify = page.getByLabel(text.notify);
    await expect(notify).toBeChecked();
    await notify.uncheck();
    await expect(notify).not.toBeChecked();
    await expect(notify).toBeEnabled();
    await page.reload();
    await expect(page.getByLabel(text.notify)).not.toBeChecked();
    // The texts about withdrawals are a choice of their own: turning one off leaves the other as it was.
    const notifyPayouts = page.getByLabel(text.notifyPayouts);
    await expect(notifyPayouts).toBeChecked();
    await notifyPayouts.uncheck();
    await expect(notifyPayouts).toBeEnabled();
    await page.reload();
    await expect(page.getByLabel(text.notifyPayouts)).not.toBeChecked();
    await expect(page.getByLabel(text.notify)).not.toBeChecked();

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: text.download }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^tipcard-data-\d{4}-\d{2}-\d{2}\.zip$/);
    const path = await download.path();
    const { readFileSync } = await import('node:fs');
    const bytes = readFileSync(path);
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('PK\x03\x04');
    expect(bytes.includes(Buffer.from('profile.json'))).toBe(true);

    await page.getByRole('button', { name: text.deleteButton }).click();
    const dialog = page.getByRole('dialog', { name: text.confirm });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: text.yes }).click();
    // The page reloads signed out: the landing page, no session cookie, and a sentence saying what happened.
    await expect(page).toHaveURL(/#\/?$/);
    await expect(page.getByTestId('snackbar')).toContainText(text.deleted);
    await expect.poll(async () => (await page.context().cookies()).some((c) => c.name === 'qtfo__token')).toBe(false);
    const card = await request.get(`/api/public/cards/${staff.cardId}`);
    expect(card.status()).toBe(404);

    // Within 30 days the same phone signs in again and is asked whether to restore.
    await page.waitForTimeout(Math.max(0, signedUpAt + CODE_WAIT_MS - Date.now()));
    await useSession(page, baseURL!, await apiSignIn(request, staff.phone));
    await page.goto(`/#${text.prefix}/overview`);
    await expect(page.getByRole('heading', { name: text.restoreTitle, level: 1 })).toBeVisible();
    expect(await a11yProblems(page, { every: true })).toEqual([]);
    await page.getByRole('button', { name: text.restore }).click();
    await expect(page.getByRole('heading', { name: text.restoreTitle })).toBeHidden();
    await expect(page).toHaveURL(/overview$/);
    expect((await request.get(`/api/public/cards/${staff.cardId}`)).status()).toBe(200);
    await request.dispose();
  });
}
