import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiError, fakeApi } from '../../test/fake-api.ts';
import { signedInRoutes } from '../../test/fixtures.ts';
import { navigatedTo, renderPage, snackbarText } from '../../test/render-page.tsx';
import AddMethodPage from './add-method-page.tsx';
import { payeeAnswer, ROUTES, sepaMethod, ukMethod } from './test-data.ts';

/** The bank confirms every name: the payee check is not what these tests are about. */
const matching = { [ROUTES.checkPayee]: payeeAnswer('match') };

async function fillSepa(iban = 'lv80bank0000435195001', holder = 'Ozola') {
  await userEvent.type(screen.getByRole('textbox', { name: 'IBAN' }), iban);
  await userEvent.type(screen.getByRole('textbox', { name: /^BIC/ }), 'habalv22');
  await userEvent.type(screen.getByRole('textbox', { name: /^Account holder's last name/ }), holder);
  await userEvent.type(screen.getByRole('textbox', { name: 'Address' }), 'Brīvības iela 1, Rīga');
}

async function fillUk() {
  await userEvent.click(screen.getByRole('tab', { name: 'UK account' }));
  await userEvent.type(screen.getByRole('textbox', { name: /^Account number/ }), '12345678');
  await userEvent.type(screen.getByRole('textbox', { name: /^Sort code/ }), '200000');
  await userEvent.type(screen.getByRole('textbox', { name: /^Account holder's name/ }), 'Anna Ozola');
  await userEvent.type(screen.getByRole('textbox', { name: 'Address' }), '1 High Street, London');
}

describe('the add payout method page', () => {
  it('saves a SEPA account in the API’s shape and goes back to the payouts', async () => {
    const api = fakeApi({ ...signedInRoutes(), ...matching, [ROUTES.addMethod]: sepaMethod() });
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
    fakeApi({ ...signedInRoutes(), ...matching, [ROUTES.addMethod]: sepaMethod() });
    await renderPage(<AddMethodPage />, { path: '/payouts/add-method?return=settings' });
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/settings/payout');
    await fillSepa();
    await userEvent.click(screen.getByRole('button', { name: 'Save payout method' }));
    expect(await navigatedTo()).toBe('/settings/payout');
  });

  it('goes back to the withdrawal with the amount and the new account, and no toast to follow the user on', async () => {
    fakeApi({ ...signedInRoutes(), ...matching, [ROUTES.addMethod]: ukMethod() });
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
      ...matching,
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
      ...matching,
      [ROUTES.addMethod]: apiError(422, 'validation_failed', 'Validation failed', { iban: ['This is not a valid IBAN.'] }),
    });
    await renderPage(<AddMethodPage />, { path: '/payouts/add-method', locale: 'lv' });
    await fillSepaIn('lv');
    await userEvent.click(screen.getByRole('button', { name: 'Saglabāt izmaksas veidu' }));
    expect(await screen.findByText('Ievadiet derīgus datus')).toBeInTheDocument();
  });

  it('asks the bank first and sends the same body to both calls when the name matches', async () => {
    const api = fakeApi({ ...signedInRoutes(), ...matching, [ROUTES.addMethod]: sepaMethod() });
    await renderPage(<AddMethodPage />, { path: '/payouts/add-method' });
    await fillSepa();
    await userEvent.click(screen.getByRole('button', { name: 'Save payout method' }));
    expect(await navigatedTo()).toBe('/payouts');
    expect(api.sent(ROUTES.checkPayee)[0]!.body).toEqual(api.sent(ROUTES.addMethod)[0]!.body);
    expect(api.calls.map((call) => call.method + ' ' + call.path).filter((key) => key.startsWith('POST'))).toEqual([
      ROUTES.checkPayee,
      ROUTES.addMethod,
    ]);
  });

  it('a close match: shows the bank’s name before saving, and one tap saves with it', async () => {
    const api = fakeApi({
      ...signedInRoutes(),
      [ROUTES.checkPayee]: (request: { body: unknown }) =>
        (request.body as { holder_last_name: string }).holder_last_name === 'Ozola'
          ? payeeAnswer('match')
          : payeeAnswer('close_match', 'Ozola'),
      [ROUTES.addMethod]: sepaMethod(),
    });
    await renderPage(<AddMethodPage />, { path: '/payouts/add-method' });
    await fillSepa('lv80bank0000435195001', 'Ozols');
    await userEvent.click(screen.getByRole('button', { name: 'Save payout method' }));
    const title = await screen.findByRole('heading', { name: 'The bank spells the name differently' });
    expect(title).toHaveFocus();
    expect(screen.getByTestId('payee-check-notice')).toHaveTextContent('the bank holds the name “Ozola”, not “Ozols”');
    expect(api.sent(ROUTES.addMethod)).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Use “Ozola”' }));
    expect(await navigatedTo()).toBe('/payouts');
    expect(api.sent(ROUTES.addMethod)[0]!.body).toMatchObject({ holder_last_name: 'Ozola' });
    expect(api.sent(ROUTES.addMethod)[0]!.body).not.toHaveProperty('confirm_mismatch');
  });

  it('a close match kept as typed is saved knowingly', async () => {
    const api = fakeApi({
      ...signedInRoutes(),
      [ROUTES.checkPayee]: payeeAnswer('close_match', 'Ozola'),
      [ROUTES.addMethod]: sepaMethod(),
    });
    await renderPage(<AddMethodPage />, { path: '/payouts/add-method' });
    await fillSepa('lv80bank0000435195001', 'Ozols');
    await userEvent.click(screen.getByRole('button', { name: 'Save payout method' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Keep “Ozols” and save' }));
    expect(await navigatedTo()).toBe('/payouts');
    expect(api.sent(ROUTES.checkPayee)).toHaveLength(1);
    expect(api.sent(ROUTES.addMethod)[0]!.body).toMatchObject({ holder_last_name: 'Ozols', confirm_mismatch: true });
  });

  it('no match: nothing is saved until the user confirms, and a corrected field asks again', async () => {
    const api = fakeApi({
      ...signedInRoutes(),
      [ROUTES.checkPayee]: payeeAnswer('no_match'),
      [ROUTES.addMethod]: sepaMethod(),
    });
    await renderPage(<AddMethodPage />, { path: '/payouts/add-method' });
    await fillSepa();
    await userEvent.click(screen.getByRole('button', { name: 'Save payout method' }));
    expect(await screen.findByRole('heading', { name: 'This name does not match the account' })).toHaveFocus();
    await userEvent.type(screen.getByRole('textbox', { name: /^Account holder's last name/ }), 'a');
    expect(screen.queryByTestId('payee-check-notice')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save payout method' }));
    await userEvent.click(await screen.findByRole('button', { name: 'I have checked the details: save anyway' }));
    expect(await navigatedTo()).toBe('/payouts');
    expect(api.sent(ROUTES.checkPayee)).toHaveLength(2);
    expect(api.sent(ROUTES.addMethod)).toHaveLength(1);
    expect(api.sent(ROUTES.addMethod)[0]!.body).toMatchObject({ holder_last_name: 'Ozolaa', confirm_mismatch: true });
  });

  it('not possible on a UK account: says the bank did not answer, and saves only when confirmed', async () => {
    const api = fakeApi({
      ...signedInRoutes(),
      [ROUTES.checkPayee]: payeeAnswer('not_possible'),
      [ROUTES.addMethod]: ukMethod(),
    });
    await renderPage(<AddMethodPage />, { path: '/payouts/add-method' });
    await fillUk();
    await userEvent.click(screen.getByRole('button', { name: 'Save payout method' }));
    expect(await screen.findByRole('heading', { name: 'The bank could not check the name' })).toHaveFocus();
    expect(api.sent(ROUTES.addMethod)).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'I have checked the details: save anyway' }));
    expect(await navigatedTo()).toBe('/payouts');
    expect(api.sent(ROUTES.addMethod)[0]!.body).toMatchObject({ kind: 'uk', confirm_mismatch: true });
  });

  it('puts the check’s refusal of a field on that field', async () => {
    const api = fakeApi({
      ...signedInRoutes(),
      [ROUTES.checkPayee]: apiError(422, 'validation_failed', 'Validation failed', { holder_last_name: ['Enter valid data'] }),
    });
    await renderPage(<AddMethodPage />, { path: '/payouts/add-method' });
    await fillSepa();
    await userEvent.click(screen.getByRole('button', { name: 'Save payout method' }));
    expect(await screen.findByText('Enter valid data')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^Account holder's last name/ })).toHaveFocus();
    expect(api.sent(ROUTES.addMethod)).toEqual([]);
  });

  it('saves a UK account from its own tab', async () => {
    const api = fakeApi({ ...signedInRoutes(), ...matching, [ROUTES.addMethod]: ukMethod() });
    await renderPage(<AddMethodPage />, { path: '/payouts/add-method' });
    await fillUk();
    expect(screen.getByRole('textbox', { name: /^Sort code/ })).toHaveValue('20-00-00');
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
