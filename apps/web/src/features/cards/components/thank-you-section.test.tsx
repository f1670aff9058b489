import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiError, fakeApi } from '../../../test/fake-api.ts';
import { CARD_ID, cardAnswer, signedInRoutes } from '../../../test/fixtures.ts';
import { renderPage, snackbarText } from '../../../test/render-page.tsx';
import CardEditPage from '../card-edit-page.tsx';
import CardThankYouPage from '../card-thank-you-page.tsx';
import { CLIENT_ID, meAnswer } from '../../../test/fixtures.ts';

const UPDATE = `PATCH /cards/${CARD_ID}`;
const UPLOAD = `POST /cards/${CARD_ID}/thank-you/photo`;
const REMOVE = `DELETE /cards/${CARD_ID}/thank-you/photo`;
const PHOTO_URL = `/api/cards/${CARD_ID}/thank-you/photo?v=1`;

const section = async () => within(await screen.findByRole('region', { name: 'Thank-you message' }));

describe('the thank-you section of the card editor', () => {
  it('counts the characters and saves only the text, apart from the card form', async () => {
    const api = fakeApi({ ...signedInRoutes(), [UPDATE]: cardAnswer({ thank_you_text: 'Thank you, see you soon!' }) });
    await renderPage(<CardEditPage />, { path: '/account/edit' });
    const thanks = await section();
    const field = thanks.getByRole('textbox', { name: /^Your thank-you/ });
    const save = thanks.getByRole('button', { name: 'Save thank-you' });
    expect(save).toBeDisabled();
    expect(field).toHaveAttribute('maxlength', '280');
    await userEvent.type(field, 'Thank you, see you soon!');
    expect(field).toHaveAccessibleDescription('Characters: 24/280');
    await userEvent.click(save);
    await waitFor(() => expect(snackbarText()).toBe('Your thank-you is saved'));
    expect(api.sent(UPDATE).map((request) => request.body)).toEqual([{ thank_you_text: 'Thank you, see you soon!' }]);
  });

  it('uploads a photo, shows it, and removes it', async () => {
    const api = fakeApi({
      ...signedInRoutes({}, { thank_you_text: 'Merci' }),
      [UPLOAD]: cardAnswer({ thank_you_text: 'Merci', thank_you_image_url: PHOTO_URL }),
      [REMOVE]: cardAnswer({ thank_you_text: 'Merci', thank_you_image_url: null }),
    });
    await renderPage(<CardEditPage />, { path: '/account/edit' });
    const thanks = await section();
    expect(thanks.getByRole('textbox', { name: /^Your thank-you/ })).toHaveValue('Merci');
    await userEvent.upload(
      thanks.getByLabelText('Choose a photo', { selector: 'input' }),
      new File(['png!'], 'me.png', { type: 'image/png' }),
    );
    expect(await thanks.findByRole('img', { name: 'The photo guests see with your thank-you' })).toHaveAttribute(
      'src',
      PHOTO_URL,
    );
    expect(api.sent(UPLOAD)[0]!.body).toEqual({ content: btoa('png!'), name: 'me.png', mime: 'image/png' });
    await userEvent.click(thanks.getByRole('button', { name: 'Remove photo' }));
    await waitFor(() => expect(thanks.queryByRole('img', { name: 'The photo guests see with your thank-you' })).toBeNull());
    expect(api.sent(REMOVE)).toHaveLength(1);
  });

  it('refuses a file that is not a JPG or PNG before sending it, and shows the server’s refusal of one', async () => {
    const api = fakeApi({
      ...signedInRoutes(),
      [UPLOAD]: apiError(422, 'invalid_file', 'Invalid file'),
    });
    await renderPage(<CardEditPage />, { path: '/account/edit', locale: 'fr' });
    const thanks = await within(await screen.findByRole('region', { name: 'Message de remerciement' }));
    const input = thanks.getByLabelText('Choisir une photo', { selector: 'input' });
    await userEvent.upload(input, new File(['gif'], 'me.gif', { type: 'image/gif' }), { applyAccept: false });
    const problem = thanks.getByRole('alert');
    expect(input).toHaveAccessibleDescription(expect.stringContaining(problem.textContent!));
    expect(api.sent(UPLOAD)).toHaveLength(0);

    // A text file named .png passes the browser's check; the server reads its bytes and says no.
    await userEvent.upload(input, new File(['not a picture'], 'fake.png', { type: 'image/png' }));
    await waitFor(() => expect(snackbarText()).not.toBeNull());
    expect(api.sent(UPLOAD)).toHaveLength(1);
    expect(thanks.queryByRole('img')).toBeNull();
  });

  it('edits a team card the admin holds on its own page, and says so for a card that is not theirs', async () => {
    const TEAM_CARD = '9f8e7d6c-5b4a-4c3d-8e2f-1a0b9c8d7e6f';
    const api = fakeApi({
      'GET /me': meAnswer(),
      [`GET /clients/${CLIENT_ID}/cards`]: [cardAnswer(), cardAnswer({ id: TEAM_CARD, title: 'Team Rīga', is_private: false })],
      [`PATCH /cards/${TEAM_CARD}`]: cardAnswer({ id: TEAM_CARD, is_private: false, thank_you_text: 'Paldies!' }),
    });
    await renderPage(<CardThankYouPage />, {
      path: `/account/cards/${TEAM_CARD}/thank-you`,
      route: '/account/cards/:cardId/thank-you',
    });
    expect(await screen.findByText('Team Rīga')).toBeInTheDocument();
    const thanks = await section();
    await userEvent.type(thanks.getByRole('textbox', { name: /^Your thank-you/ }), 'Paldies!');
    await userEvent.click(thanks.getByRole('button', { name: 'Save thank-you' }));
    await waitFor(() => expect(api.sent(`PATCH /cards/${TEAM_CARD}`)).toHaveLength(1));
  });

  it('says a card that is not among the user’s is not found', async () => {
    fakeApi(signedInRoutes());
    const other = '0a0b0c0d-0e0f-4a1b-8c2d-3e4f5a6b7c8d';
    await renderPage(<CardThankYouPage />, {
      path: `/account/cards/${other}/thank-you`,
      route: '/account/cards/:cardId/thank-you',
    });
    expect(await screen.findByText('Card not found')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Thank-you message' })).toBeNull();
  });
});
