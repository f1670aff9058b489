import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiError, fakeApi } from '../../test/fake-api.ts';
import { CARD_ID, CLIENT_ID, cardAnswer, meAnswer, signedInRoutes } from '../../test/fixtures.ts';
import { navigatedTo, renderPage, snackbarText } from '../../test/render-page.tsx';
import CardCreatePage from './card-create-page.tsx';
import CardEditPage from './card-edit-page.tsx';

const CARDS = `GET /clients/${CLIENT_ID}/cards`;
const CREATE = `POST /clients/${CLIENT_ID}/cards`;
const UPDATE = `PATCH /cards/${CARD_ID}`;

const field = (name: string | RegExp) => screen.getByRole('textbox', { name });

describe('the card create page', () => {
  it('starts from the profile the user gave at sign-up and creates the card', async () => {
    const api = fakeApi({
      'GET /me': meAnswer({ welcome_phrase: 'Sveiki!' }),
      [CARDS]: [],
      [CREATE]: cardAnswer({ title: 'Bar Riga' }),
    });
    await renderPage(<CardCreatePage />, { path: '/account/create' });
    expect(await screen.findByRole('heading', { name: 'Create your QR card' })).toBeInTheDocument();
    await waitFor(() => expect(field('Public name')).toHaveValue('Anna'));
    expect(field(/^Welcome phrase/)).toHaveValue('Sveiki!');
    expect(screen.getByRole('combobox', { name: 'Activity' })).toHaveDisplayValue('Waiter or bartender');
    await userEvent.type(field('Card title'), 'Bar Riga');
    await userEvent.click(screen.getByRole('button', { name: 'Create card' }));
    expect(await navigatedTo()).toBe('/overview');
    expect(api.sent(CREATE)[0]!.body).toMatchObject({
      title: 'Bar Riga',
      public_name: 'Anna',
      welcome_phrase: 'Sveiki!',
      public_text: null,
      activity_type: 'WAITER',
      country: 'LV',
      instagram: null,
    });
    // The overview greets the new card; no message says it twice.
    expect(snackbarText()).toBeNull();
  });

  it('says what is missing or wrong before sending', async () => {
    const api = fakeApi({ 'GET /me': meAnswer(), [CARDS]: [] });
    await renderPage(<CardCreatePage />, { path: '/account/create' });
    await userEvent.type(await screen.findByRole('textbox', { name: /^Instagram/ }), 'http://example.com/anna');
    await userEvent.click(screen.getByRole('button', { name: 'Create card' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(field('Card title')).toHaveAccessibleDescription('This field is required');
    expect(field(/^Instagram/)).toHaveAttribute('aria-invalid', 'true');
    expect(api.sent(CREATE)).toHaveLength(0);
  });

  it('puts the server’s refusal under its field and stays', async () => {
    fakeApi({
      'GET /me': meAnswer(),
      [CARDS]: [],
      [CREATE]: apiError(422, 'validation_failed', 'This value is too long.', { title: ['This value is too long.'] }),
    });
    await renderPage(<CardCreatePage />, { path: '/account/create' });
    await userEvent.type(await screen.findByRole('textbox', { name: 'Card title' }), 'Bar');
    await userEvent.click(screen.getByRole('button', { name: 'Create card' }));
    await waitFor(() => expect(field('Card title')).toHaveAccessibleDescription('This value is too long.'));
    expect(field('Card title')).toHaveFocus();
    expect(screen.queryByTestId('navigated-to')).not.toBeInTheDocument();
  });
});

describe('the card edit page', () => {
  it('shows the card as it is, saves the changes and goes back to the card', async () => {
    const api = fakeApi({
      ...signedInRoutes({}, { title: 'Bar Riga', tiktok: 'https://tiktok.com/@anna' }),
      [UPDATE]: cardAnswer({ title: 'Bar Jūrmala' }),
    });
    await renderPage(<CardEditPage />, { path: '/account/edit', locale: 'lv' });
    const title = await screen.findByRole('textbox', { name: 'Kartes nosaukums' });
    expect(title).toHaveValue('Bar Riga');
    await userEvent.clear(title);
    await userEvent.type(title, 'Bar Jūrmala');
    await userEvent.click(screen.getByRole('button', { name: 'Saglabāt izmaiņas' }));
    expect(await navigatedTo()).toBe('/lv/account');
    expect(api.sent(UPDATE)[0]!.body).toMatchObject({ title: 'Bar Jūrmala', tiktok: 'https://tiktok.com/@anna' });
  });

  it('goes back without saving on Cancel', async () => {
    const api = fakeApi(signedInRoutes());
    await renderPage(<CardEditPage />, { path: '/account/edit' });
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(await navigatedTo()).toBe('/account');
    expect(api.sent(UPDATE)).toHaveLength(0);
  });

  it('puts the server’s refusal of a link under that link', async () => {
    fakeApi({
      ...signedInRoutes(),
      [UPDATE]: apiError(422, 'validation_failed', 'This value is not a valid URL.', {
        facebook: ['This value is not a valid URL.'],
      }),
    });
    await renderPage(<CardEditPage />, { path: '/account/edit' });
    await userEvent.type(await screen.findByRole('textbox', { name: /^Facebook/ }), 'https://facebook.com/x');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(field(/^Facebook/)).toHaveAccessibleDescription('This value is not a valid URL.'));
  });

  it("offers the activity's amounts, keeps the owner's own, and refuses amounts that do not rise", async () => {
    const api = fakeApi({
      ...signedInRoutes({}, { activity_type: 'WAITER' }),
      [UPDATE]: cardAnswer({ preset_amounts_cents: [200, 400, 800, 1_500] }),
    });
    await renderPage(<CardEditPage />, { path: '/account/edit' });
    const amount = (number: number) => field(`Amount ${number}`);
    await waitFor(() => expect(amount(1)).toHaveValue('3'));
    expect([2, 3, 4].map((number) => (amount(number) as HTMLInputElement).value)).toEqual(['5', '10', '20']);
    expect(screen.getByText('Suggested for your activity.')).toBeInTheDocument();

    // Untouched amounts follow the activity.
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Activity' }), 'HOUSEMAID');
    await waitFor(() => expect(amount(1)).toHaveValue('2'));
    expect(amount(4)).toHaveValue('10');

    await userEvent.clear(amount(2));
    await userEvent.type(amount(2), '1,50');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Each amount has to be larger than the one before it')).toBeInTheDocument();
    expect(amount(2)).toHaveAttribute('aria-invalid', 'true');
    expect(api.sent(UPDATE)).toHaveLength(0);

    await userEvent.clear(amount(2));
    await userEvent.type(amount(2), '4');
    await userEvent.clear(amount(4));
    await userEvent.type(amount(4), '15');
    await userEvent.clear(amount(3));
    await userEvent.type(amount(3), '8');
    await userEvent.clear(amount(1));
    await userEvent.type(amount(1), '2');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await navigatedTo()).toBe('/account');
    expect(api.sent(UPDATE)[0]!.body).toMatchObject({ activity_type: 'HOUSEMAID', preset_amounts_cents: [200, 400, 800, 1_500] });
  });

  it("sends no amounts of its own when the owner keeps the activity's, and shows a card's chosen ones", async () => {
    const api = fakeApi({ ...signedInRoutes({}, { preset_amounts_cents: [250, 450, 900, 1_800] }), [UPDATE]: cardAnswer() });
    await renderPage(<CardEditPage />, { path: '/account/edit', locale: 'fr' });
    await waitFor(() => expect(field('Montant 1')).toHaveValue('2,50'));
    await userEvent.click(screen.getByRole('button', { name: 'Utiliser les montants suggérés' }));
    expect(field('Montant 1')).toHaveValue('3');
    await userEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await navigatedTo();
    expect(api.sent(UPDATE)[0]!.body).toMatchObject({ preset_amounts_cents: null });
  });
});
