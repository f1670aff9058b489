import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi } from '../../test/fake-api.ts';
import { CARD_ID, signedInRoutes } from '../../test/fixtures.ts';
import { navigatedTo, renderPage } from '../../test/render-page.tsx';
import CardPage from './card-page.tsx';

describe('the card page', () => {
  it('shows the public profile as guests see it, in the reader’s language', async () => {
    fakeApi(
      signedInRoutes(
        {},
        {
          title: 'Café Riga',
          welcome_phrase: 'Paldies!',
          public_text: null,
          rating: 4.75,
          instagram: 'https://instagram.com/anna',
        },
      ),
    );
    await renderPage(<CardPage />, { path: '/account', locale: 'fr' });
    expect(await screen.findByRole('heading', { name: 'Anna' })).toBeInTheDocument();
    expect(screen.getByText('Café Riga')).toBeInTheDocument();
    expect(screen.getByText('Lettonie')).toBeInTheDocument();
    expect(screen.getByText('Paldies!')).toBeInTheDocument();
    expect(screen.getByText(/4,8/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Instagram/ })).toHaveAttribute('href', 'https://instagram.com/anna');
    expect(screen.queryByRole('link', { name: /Facebook/ })).not.toBeInTheDocument();
    expect(screen.getByText(`http://tipcard.test/payment/${CARD_ID}`)).toBeInTheDocument();
  });

  it('copies the payment link and says so', async () => {
    const user = userEvent.setup();
    fakeApi(signedInRoutes());
    await renderPage(<CardPage />, { path: '/account' });
    await user.click(await screen.findByRole('button', { name: 'Copy link' }));
    expect(await navigator.clipboard.readText()).toBe(`http://tipcard.test/payment/${CARD_ID}`);
    expect(screen.getAllByText('Copied').length).toBeGreaterThan(0);
  });

  it('offers to add a photo when there is none, and opens the editor', async () => {
    fakeApi(signedInRoutes());
    await renderPage(<CardPage />, { path: '/account' });
    expect(await screen.findByRole('link', { name: 'Add photo' })).toHaveAttribute('href', '/account/add-photo');
    await userEvent.click(screen.getByRole('link', { name: 'Edit' }));
    expect(await navigatedTo()).toBe('/account/edit');
  });

  it('offers to change a photo there is', async () => {
    fakeApi(signedInRoutes({}, { image_url: 'http://tipcard.test/photo.jpg' }));
    await renderPage(<CardPage />, { path: '/account' });
    expect(await screen.findByRole('link', { name: 'Change photo' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Photo of Anna' })).toBeInTheDocument();
  });
});
