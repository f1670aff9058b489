import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiError, fakeApi } from '../../test/fake-api.ts';
import { signedInRoutes } from '../../test/fixtures.ts';
import { navigatedTo, renderPage, snackbarText } from '../../test/render-page.tsx';
import AddMethodPage from './add-method-page.tsx';
import { ROUTES, sepaMethod, ukMethod } from './test-data.ts';

async function fillSepa(iban = 'lv80bank0000435195001') {
  await userEvent.type(screen.getByRole('textbox', { name: 'IBAN' }), iban);
  await userEvent.type(screen.getByRole('textbox', { name: /^BIC/ }), 'habalv22');
  await userEvent.type(screen.getByRole('textbox', { name: /^Account holder's last name/ }), 'Ozola');
  await userEvent.type(screen.getByRole('textbox', { name: 'Address' }), 'Brīvības iela 1, Rīga');
}

describe('the add payout method page', () => {
  it('saves a SEPA account in the API’s shape and goes back to the payouts', async () => {
    const api = fakeApi({ ...signedInRoutes(), [ROUTES.addMethod]: sepaMethod() });
    await renderPage(<AddMethodPage />, { path: '/payouts/add-method' });
    await fillSepa();
    expect(screen.getByRole('textbox', { name: 'IBAN' })).toHaveValue('LV80 BANK 0000 4351 9500 1');
    expect(screen.getByTestId('iban-feedback')).toHaveTextContent('Latvia');
    await userEvent.click(screen.getByRole('button', { name: 'Save payout method' }));
    expect(await navigatedTo()).toBe('/payouts');
    expect(snackbarText()).toBe('Payout method added.');
    const [request] = api.sent(ROUTES.addMethod);
    expect(request!.body).toEqual({
      kind: 'sepa',
      iban: 'LV80BANK0000435195001',
      bic: 'HABALV22',
      holder_last_name: 'Ozola',
      address: 'Brīvības iela 1, Rīga',
    });
    expect(request!.headers.get('Idempotency-Key')).toBeTruthy();
  });

  it('goes back where it was opened from: the settings, or the withdrawal', async () => {
    fakeApi({ ...signedInRoutes(), [ROUTES.addMethod]: sepaMethod() });
    await renderPage(<AddMethodPage />, { path: '/payouts/add-method?return=settings' });
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/settings/payout');
    await fillSepa();
    await userEvent.click(screen.getByRole('button', { name: 'Save payout method' }));
    expect(await navigatedTo()).toBe('/settings/payout');
  });

  it('goes back to the withdrawal with the amount and the new account, and no toast to follow the user on', async () => {
    fakeApi({ ...signedInRoutes(), [ROUTES.addMethod]: ukMethod() });
    await renderPage(<AddMethodPage />, { path: '/payouts/add-method?return=withdraw&amount=1250' });
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/payouts?withdraw=1&amount=1250');
    await fillSepa();
    await userEvent.click(screen.getByRole('button', { name: 'Save payout method' }));
    expect(await navigatedTo()).toBe(`/payouts?withdraw=1&amount=1250&method=${ukMethod().id}`);
    expect(snackbarText()).toBeNull();
  });

  it('leaves for the withdrawal on cancel, sending nothing', async () => {
    const api = fakeApi({ ...signedInRoutes() });
    await renderPage(<AddMethodPage />, { path: '/payouts/add-method?return=withdraw' });
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await navigatedTo()).toBe('/payouts?withdraw=1');
    expect(api.sent(ROUTES.addMethod)).toEqual([]);
  });

  it('names the empty fields and sends nothing', async () => {
    const api = fakeApi({ ...signedInRoutes() });
    await renderPage(<AddMethodPage />, { path: '/payouts/add-method' });
    await userEvent.click(screen.getByRole('button', { name: 'Save payout method' }));
    expect(await screen.findAllByText('This field is required')).toHaveLength(4);
    expect(screen.getByRole('textbox', { name: 'IBAN' })).toHaveAttribute('aria-invalid', 'true');
    expect(api.sent(ROUTES.addMethod)).toEqual([]);
  });

  it('says what is wrong with an IBAN as it is typed', async () => {
    fakeApi({ ...signedInRoutes() });
    await renderPage(<AddMethodPage />, { path: '/payouts/add-method' });
    await userEvent.type(screen.getByRole('textbox', { name: 'IBAN' }), 'LV80BANK0000435195002');
    expect(screen.getByTestId('iban-feedback')).toHaveTextContent('This IBAN has a typo: its check digits do not match.');
  });

  it('shows the IBAN the server refused on the field, and stays', async () => {
    fakeApi({
      ...signedInRoutes(),
      [ROUTES.addMethod]: apiError(422, 'validation_failed', 'Validation failed', {
        iban: ['This IBAN cannot receive SEPA credit transfers.'],
      }),
    });
    await renderPage(<AddMethodPage />, { path: '/payouts/add-method' });
    await fillSepa();
    await userEvent.click(screen.getByRole('button', { name: 'Save payout method' }));
    expect(await screen.findByText('This IBAN cannot receive SEPA credit transfers.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'IBAN' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('textbox', { name: 'IBAN' })).toHaveFocus();
    expect(screen.queryByTestId('navigated-to')).not.toBeInTheDocument();
  });

  it('words the server’s refusal in the reader’s language', async () => {
    fakeApi({
      ...signedInRoutes(),
      [ROUTES.addMethod]: apiError(422, 'validation_failed', 'Validation failed', { iban: ['This is not a valid IBAN.'] }),
    });
    await renderPage(<AddMethodPage />, { path: '/payouts/add-method', locale: 'lv' });
    await fillSepaIn('lv');
    await userEvent.click(screen.getByRole('button', { name: 'Saglabāt izmaksas veidu' }));
    expect(await screen.findByText('Ievadiet derīgus datus')).toBeInTheDocument();
  });

  it('saves a UK account from its own tab', async () => {
    const api = fakeApi({ ...signedInRoutes(), [ROUTES.addMethod]: ukMethod() });
    await renderPage(<AddMethodPage />, { path: '/payouts/add-method' });
    await userEvent.click(screen.getByRole('tab', { name: 'UK account' }));
    await userEvent.type(screen.getByRole('textbox', { name: /^Account number/ }), '12345678');
    await userEvent.type(screen.getByRole('textbox', { name: /^Sort code/ }), '200000');
    expect(screen.getByRole('textbox', { name: /^Sort code/ })).toHaveValue('20-00-00');
    await userEvent.type(screen.getByRole('textbox', { name: /^Account holder's name/ }), 'Anna Ozola');
    await userEvent.type(screen.getByRole('textbox', { name: 'Address' }), '1 High Street, London');
    await userEvent.click(screen.getByRole('button', { name: 'Save payout method' }));
    expect(await navigatedTo()).toBe('/payouts');
    expect(api.sent(ROUTES.addMethod)[0]!.body).toEqual({
      kind: 'uk',
      account_number: '12345678',
      sort_code: '200000',
      holder_name: 'Anna Ozola',
      address: '1 High Street, London',
    });
  });
});

/** The SEPA form filled through its labels in another language. */
async function fillSepaIn(locale: 'lv') {
  const labels = { lv: { iban: 'IBAN', bic: /^BIC/, holder: /^Konta īpašnieka uzvārds/, address: 'Adrese' } }[locale];
  await userEvent.type(screen.getByRole('textbox', { name: labels.iban }), 'LV80BANK0000435195001');
  await userEvent.type(screen.getByRole('textbox', { name: labels.bic }), 'HABALV22');
  await userEvent.type(screen.getByRole('textbox', { name: labels.holder }), 'Ozola');
  await userEvent.type(screen.getByRole('textbox', { name: labels.address }), 'Brīvības iela 1');
}
