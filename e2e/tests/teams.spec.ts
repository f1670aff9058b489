import { expect, test, type BrowserContext, type Page } from './fixtures.ts';
import { a11yProblems, createStaffWithCard, newPhone, payTipWithApplePay, readCode, type Staff } from './helpers.ts';

/**
 * Teams (issue 11), in English and in Latvian on a phone: an admin creates a workplace, a colleague opens the invite link on another phone, signs up and
 * asks to join, the admin approves; a guest tips 10 EUR to the team card; both see their share in HOLD and then PAID
 * (the server runs with a 36-second hold); the admin hands admin over and leaves.
 */

async function signIn(context: BrowserContext, baseURL: string, staff: Staff) {
  const { hostname } = new URL(baseURL);
  await context.addCookies([
    { name: 'qtfo__token', value: staff.jwt, domain: hostname, path: '/' },
    { name: 'refresh__key', value: staff.refreshToken, domain: hostname, path: '/' },
  ]);
}

const TEXTS = {
  en: {
    prefix: '',
    share: '4.75',
    teamTip: 'Team tip via',
    browserLocale: 'en-GB',
    notInTeam: 'You are not in a team yet',
    create: 'Create a workplace',
    name: 'Workplace name',
    country: 'Country',
    submitWorkplace: 'Create workplace',
    qr: 'QR code of the invite link',
    members: 'Members: 1',
    signUp: 'Sign up',
    phone: 'Phone number',
    age: 'I confirm that I am 16 years old or older',
    terms: 'I agree to the terms of use and the privacy policy',
    code: 'Confirmation code',
    confirmCode: 'Confirm',
    ask: 'Ask to join',
    approve: 'Approve',
    publicName: 'Public name',
    cardTitle: 'Card title',
    activity: 'Activity',
    createCard: 'Create card',
    split: "split evenly among the team's 2 members",
    makeAdmin: 'Make admin',
    handOverText: "There is one admin. Bob becomes the team's admin",
    handOver: 'Hand over admin',
    leaveTeam: 'Leave the team',
    leave: 'Leave',
    rename: 'Rename',
  },
  lv: {
    prefix: '/lv',
    share: '4,75',
    teamTip: 'Komandas dzeramnauda:',
    browserLocale: 'lv-LV',
    notInTeam: 'Jūs vēl neesat nevienā komandā',
    create: 'Izveidot darba vietu',
    name: 'Darba vietas nosaukums',
    country: 'Valsts',
    submitWorkplace: 'Izveidot darba vietu',
    qr: 'Uzaicinājuma saites QR kods',
    members: 'Dalībnieki: 1',
    signUp: 'Reģistrēties',
    phone: 'Tālruņa numurs',
    age: 'Apstiprinu, ka man ir vismaz 16 gadu',
    terms: 'Piekrītu lietošanas noteikumiem un privātuma politikai',
    code: 'Apstiprinājuma kods',
    confirmCode: 'Apstiprināt',
    ask: 'Pieteikties',
    approve: 'Apstiprināt',
    publicName: 'Publiskais vārds',
    cardTitle: 'Kartes nosaukums',
    activity: 'Darbības joma',
    createCard: 'Izveidot karti',
    split: 'vienādi sadalīta starp 2 komandas dalībniekiem',
    makeAdmin: 'Padarīt par administratoru',
    handOverText: 'Administrators ir viens. Bob kļūs par komandas administratoru',
    handOver: 'Nodot tiesības',
    leaveTeam: 'Pamest komandu',
    leave: 'Pamest',
    rename: 'Pārdēvēt',
  },
} as const;

/** The newest PAYIN of the signed-in user, once it has the given status (reloading until it does). */
async function expectTeamShare(page: Page, prefix: string, status: 'HOLD' | 'PAID', amount: string, line: string) {
  await expect
    .poll(
      async () => {
        // A reload: the hash alone would keep the history already drawn (before the tip was credited).
        await page.goto(`/#${prefix}/transactions`);
        await page.reload();
        const row = page.getByTestId('transaction').first();
        await expect(row.or(page.getByTestId('transactions-empty'))).toBeVisible();
        return (await row.isVisible()) ? [await row.getAttribute('data-status'), (await row.textContent()) ?? ''] : [null, ''];
      },
      { timeout: 90_000, intervals: [1_000, 2_000] },
    )
    .toEqual([status, expect.stringContaining(amount)]);
  await expect(page.getByTestId('transaction').first()).toContainText(line);
}

/** No axe problem on the page as it is now (every rule, not only the serious ones). */
async function expectAccessible(page: Page) {
  expect(await a11yProblems(page, { every: true })).toEqual([]);
}

for (const [locale, text] of Object.entries(TEXTS)) {
  test(`${locale}: three steps to a shared team card: create, invite and approve, split tips, hand over and leave`, async ({
    browser,
    page,
    context,
    request,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    const team = `Bar Riga ${locale.toUpperCase()}`;
    const admin = await createStaffWithCard(request, { public_name: 'Anna' });
    await signIn(context, baseURL!, admin);
    const phoneContext = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: text.browserLocale };

    // The admin creates the workplace.
    await page.goto(`/#${text.prefix}/workplace`);
    await expect(page.getByRole('heading', { name: text.notInTeam })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('link', { name: text.create }).click();
    await page.getByLabel(text.name).fill(team);
    await page.getByLabel(text.country).selectOption('LV');
    await expectAccessible(page);
    await page.getByRole('button', { name: text.submitWorkplace }).click();
    await expect(page.getByRole('heading', { name: team, level: 1 })).toBeVisible();
    const inviteUrl = await page.getByTestId('invite-url').inputValue();
    expect(inviteUrl).toMatch(/\/teams\/[0-9a-f-]{36}\/join$/);
    await expect(page.getByRole('img', { name: text.qr })).toBeVisible();
    await expectAccessible(page);

    // A colleague opens the invite link on another phone (English: the path form; Latvian: the hash form with the
    // language), signs up and comes back to ask.
    const phone2 = await browser.newContext(phoneContext);
    const colleague = await phone2.newPage();
    const { pathname } = new URL(inviteUrl);
    await colleague.goto(locale === 'en' ? pathname : `/#${text.prefix}${pathname}`);
    await expect(colleague.getByTestId('join-team-title')).toHaveText(team);
    await expect(colleague.getByText(text.members)).toBeVisible();
    await expectAccessible(colleague);
    await colleague.getByRole('link', { name: text.signUp }).click();
    const colleaguePhone = newPhone();
    await colleague.getByLabel(text.phone).fill(colleaguePhone);
    await colleague.getByLabel(text.age).check();
    await colleague.getByLabel(text.terms).check();
    await colleague.getByRole('button', { name: text.signUp }).click();
    await colleague.getByLabel(text.code).fill(await readCode(request, colleaguePhone));
    await colleague.getByRole('button', { name: text.confirmCode }).click();
    await expect(colleague.getByTestId('join-team-title')).toHaveText(team);
    await colleague.getByRole('button', { name: text.ask }).click();
    await expect(colleague.getByTestId('join-requested')).toBeVisible();
    await expectAccessible(colleague);

    // The admin approves.
    await page.reload();
    const requests = page.getByTestId('team-requests');
    await expect(requests.getByRole('listitem')).toHaveCount(1);
    await expectAccessible(page);
    await requests.getByRole('button', { name: text.approve }).click();
    await expect(page.getByTestId('team-members').getByRole('listitem')).toHaveCount(2);

    // The colleague makes their card, then sees the team.
    await colleague.goto(`/#${text.prefix}/account/create`);
    await colleague.getByLabel(text.publicName).fill('Bob');
    await colleague.getByLabel(text.cardTitle).fill(team);
    await colleague.getByLabel(text.activity).selectOption('WAITER');
    await colleague.getByLabel(text.country).selectOption('LV');
    await colleague.getByRole('button', { name: text.createCard }).click();
    await expect(colleague).toHaveURL(/#(\/lv)?\/overview/);
    await colleague.goto(`/#${text.prefix}/workplace`);
    await expect(colleague.getByTestId('team-members')).toContainText('Anna');
    await expect(colleague.getByTestId('team-members')).toContainText('Bob');
    await expectAccessible(colleague);

    // A guest sees the team on the team card's page and tips 10 EUR: 4.75 each (9.50 after the 0.50 fee), written in the reader's decimal mark.
    const workplace = await request.get(`/api/clients/${admin.clientId}/workplace`, {
      headers: { Authorization: `Bearer ${admin.jwt}` },
    });
    const { card_id: cardId } = ((await workplace.json()) as { data: { team: { card_id: string } } }).data.team;
    const guestContext = await browser.newContext(phoneContext);
    const guest = await guestContext.newPage();
    await guest.goto(`/payment/${cardId}`);
    await expect(guest.getByTestId('team-card-header')).toContainText(team);
    await expect(guest.getByTestId('team-card-header')).toContainText(text.split);
    await expectAccessible(guest);
    await guestContext.close();
    await payTipWithApplePay(request, cardId, { amount_cents: 1_000 });

    await expectTeamShare(page, text.prefix, 'HOLD', text.share, `${text.teamTip} ${team}`);
    await expectTeamShare(colleague, text.prefix, 'HOLD', text.share, `${text.teamTip} ${team}`);
    await expectTeamShare(page, text.prefix, 'PAID', text.share, `${text.teamTip} ${team}`);
    await expectTeamShare(colleague, text.prefix, 'PAID', text.share, `${text.teamTip} ${team}`);

    // The admin hands admin over (the dialog says what it means) and leaves.
    await page.goto(`/#${text.prefix}/workplace`);
    await page.reload();
    await expect(page.getByTestId('team-members')).toContainText('Bob');
    await page.getByRole('button', { name: text.makeAdmin }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(text.handOverText);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: text.handOver }).click();
    await expect(page.getByRole('button', { name: text.makeAdmin })).toHaveCount(0);
    await page.getByRole('button', { name: text.leaveTeam }).click();
    await page.getByRole('dialog').getByRole('button', { name: text.leave, exact: true }).click();
    await expect(page.getByRole('heading', { name: text.notInTeam })).toBeVisible();

    await colleague.goto(`/#${text.prefix}/workplace`);
    await colleague.reload();
    await expect(colleague.getByTestId('team-members').getByRole('listitem')).toHaveCount(1);
    await expect(colleague.getByRole('button', { name: text.rename })).toBeVisible();
    await phone2.close();
  });
}

test('the invite link speaks Latvian, and a wrong one says the team is not found', async ({ page, request }) => {
  const admin = await createStaffWithCard(request, { public_name: 'Anna' });
  const created = await request.post(`/api/clients/${admin.clientId}/workplace`, {
    headers: { Authorization: `Bearer ${admin.jwt}` },
    data: { name: 'Kafejnīca', country: 'LV' },
  });
  const { id } = ((await created.json()) as { data: { team: { id: string } } }).data.team;
  await page.goto(`/#/lv/teams/${id}/join`);
  await expect(page.getByText('Pievienoties komandai')).toBeVisible();
  await expect(page.getByTestId('join-team-title')).toHaveText('Kafejnīca');
  await expect(page.getByRole('link', { name: 'Reģistrēties' })).toBeVisible();
  await page.goto(`/#/lv/teams/${crypto.randomUUID()}/join`);
  await expect(page.getByTestId('team-not-found')).toHaveText('Komanda nav atrasta');
});
