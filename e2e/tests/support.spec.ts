import { expect, test, type Page } from './fixtures.ts';
import { a11yProblems, createStaffWithCard, ONE_PAGE_PDF, signInUserApp } from './helpers.ts';

/**
 * The support centre on a phone (390×844), in English and in French: open a ticket with a dragged PDF, see the
 * operator's answer and the menu's badge, reply.
 */

const PDF = ONE_PAGE_PDF;

/** Drops files on an element the way a browser does: a DataTransfer carrying File objects, dragenter → dragover → drop. */
async function dropFiles(page: Page, selector: string, files: { name: string; mime: string; base64: string }[]) {
  const transfer = await page.evaluateHandle((items) => {
    const data = new DataTransfer();
    for (const item of items) {
      const bytes = Uint8Array.from(atob(item.base64), (c) => c.charCodeAt(0));
      data.items.add(new File([bytes], item.name, { type: item.mime }));
    }
    return data;
  }, files);
  await page.dispatchEvent(selector, 'dragenter', { dataTransfer: transfer });
  await page.dispatchEvent(selector, 'dragover', { dataTransfer: transfer });
  await page.dispatchEvent(selector, 'drop', { dataTransfer: transfer });
}

const TEXTS = {
  en: {
    prefix: '',
    title: 'Support center',
    newTicket: 'New ticket',
    modal: 'New support ticket',
    subject: 'Subject',
    message: 'Message',
    send: 'Send ticket',
    remove: 'Remove notes.pdf',
    you: 'You',
    operator: 'Tipcard support',
    waiting: 'Answer waiting',
    open: 'Open',
    menu: 'Open menu',
    badge: /Support center.*Answers waiting for you: 1/,
    reply: 'Your reply',
    replySend: 'Send',
  },
  fr: {
    prefix: '/fr',
    title: 'Centre d’assistance',
    newTicket: 'Nouveau ticket',
    modal: 'Nouveau ticket d’assistance',
    subject: 'Objet',
    message: 'Message',
    send: 'Envoyer le ticket',
    remove: 'Retirer notes.pdf',
    you: 'Vous',
    operator: 'Assistance Tipcard',
    waiting: 'Nouvelle réponse',
    open: 'Ouvert',
    menu: 'Ouvrir le menu',
    badge: /Centre d’assistance.*Réponses qui vous attendent : 1/,
    reply: 'Votre réponse',
    replySend: 'Envoyer',
  },
} as const;

for (const [locale, text] of Object.entries(TEXTS)) {
  test(`support in ${locale}: a ticket with a dragged PDF, the operator's answer and the badge, a reply`, async ({
    page,
    playwright,
    baseURL,
  }) => {
    const request = await playwright.request.newContext({ baseURL: baseURL! });
    const staff = await createStaffWithCard(request);
    await signInUserApp(page.context(), baseURL!, staff);

    await page.goto(`/#${text.prefix}/support`);
    await expect(page.getByRole('heading', { name: text.title, level: 1 })).toBeVisible();
    await expect(page.getByTestId('tickets-empty')).toBeVisible();
    expect(await a11yProblems(page, { every: true })).toEqual([]);

    await page.getByRole('button', { name: text.newTicket }).click();
    const modal = page.getByRole('dialog', { name: text.modal });
    await expect(modal).toBeVisible();
    const send = modal.getByRole('button', { name: text.send });
    // Both fields needed: the button looks inactive and sending does nothing.
    await expect(send).toHaveAttribute('aria-disabled', 'true');
    await modal.getByLabel(text.subject).fill('Payout not received');
    await expect(send).toHaveAttribute('aria-disabled', 'true');
    await modal.getByLabel(text.message).fill('x'.repeat(300));
    await expect(modal.getByLabel(text.message)).toHaveValue('x'.repeat(255));
    await expect(modal.getByText(/255/)).toBeVisible();
    await modal.getByLabel(text.message).fill('My withdrawal of 20 EUR on Monday has not arrived.');
    await expect(send).toHaveAttribute('aria-disabled', 'false');

    const pdf = PDF.toString('base64');
    await dropFiles(page, '[data-testid="attachment-drop"]', [
      { name: 'statement.pdf', mime: 'application/pdf', base64: pdf },
      { name: 'notes.pdf', mime: 'application/pdf', base64: pdf },
    ]);
    await expect(modal.getByText('statement.pdf', { exact: true })).toBeVisible();
    await modal.getByRole('button', { name: text.remove }).click();
    await expect(modal.getByText('notes.pdf', { exact: true })).toBeHidden();
    expect(await a11yProblems(page, { scope: 'dialog', every: true })).toEqual([]);
    await send.click();

    await expect(page).toHaveURL(/#.*\/support\/[0-9a-f-]{36}$/);
    const ticketId = /support\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
    const conversation = page.getByTestId('conversation');
    await expect(conversation).toContainText('My withdrawal of 20 EUR on Monday has not arrived.');
    await expect(conversation).toContainText('statement.pdf');
    await expect(conversation).not.toContainText('notes.pdf');
    await expect(page.getByTestId('ticket-status')).toHaveText(text.open);

    // An operator answers (the back office's call, through the development route).
    const replied = await request.post(`/api/dev/support/${ticketId}/reply`, {
      data: { message: 'We sent it again; it arrives tomorrow.' },
    });
    expect(replied.status()).toBe(204);
    await page.reload();
    await expect(conversation.locator('[data-author="operator"]')).toContainText('We sent it again; it arrives tomorrow.');
    await expect(conversation.locator('[data-author="operator"]')).toContainText(text.operator);
    await expect(page.getByTestId('ticket-status')).toHaveText(text.waiting);
    await page.getByRole('button', { name: text.menu }).click();
    await expect(page.getByRole('link', { name: text.badge })).toBeVisible();
    await page.keyboard.press('Escape');

    // A file the picker refuses says why; once the reply has gone, that message goes with it.
    await dropFiles(page, '[data-testid="attachment-drop"]', [
      { name: 'setup.exe', mime: 'application/x-msdownload', base64: pdf },
    ]);
    const refused = page.getByRole('alert').filter({ hasText: 'setup.exe' });
    await expect(refused).toBeVisible();
    await page.getByLabel(text.reply).fill('Thank you!');
    await page.getByRole('button', { name: text.replySend, exact: true }).click();
    await expect(conversation.locator('[data-author="user"]').last()).toContainText('Thank you!');
    await expect(refused).toHaveCount(0);
    await expect(page.getByTestId('ticket-status')).toHaveText(text.open);
    await expect(page.getByTestId('support-badge')).toHaveCount(0);
    expect(await a11yProblems(page, { every: true })).toEqual([]);
    await request.dispose();
  });
}
