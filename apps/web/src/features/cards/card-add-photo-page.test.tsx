import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiError, fakeApi } from '../../test/fake-api.ts';
import { CARD_ID, cardAnswer, signedInRoutes } from '../../test/fixtures.ts';
import { navigatedTo, renderPage, snackbarText } from '../../test/render-page.tsx';
import CardAddPhotoPage from './card-add-photo-page.tsx';

const UPLOAD = `POST /cards/${CARD_ID}/photo`;
const REMOVE = `DELETE /cards/${CARD_ID}/photo`;
const PHOTO_URL = 'http://tipcard.test/photo.jpg';

const png = (name = 'me.png', bytes = 'png!') => new File([bytes], name, { type: 'image/png' });
const picker = () => screen.getByLabelText(/Choose a photo/, { selector: 'input' });

// jsdom has no object URLs; the preview only needs one to show.
const { createObjectURL, revokeObjectURL } = URL;
beforeEach(() => {
  URL.createObjectURL = () => 'blob:preview';
  URL.revokeObjectURL = () => undefined;
});
afterEach(() => {
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = revokeObjectURL;
});

describe('the add photo page', () => {
  it('previews the chosen photo, uploads it and goes back to the card', async () => {
    const api = fakeApi({ ...signedInRoutes(), [UPLOAD]: cardAnswer({ image_url: PHOTO_URL }) });
    await renderPage(<CardAddPhotoPage />, { path: '/account/add-photo' });
    await screen.findByRole('heading', { name: 'Profile photo' });
    await userEvent.upload(picker(), png());
    expect(screen.getByRole('img', { name: 'Preview of the chosen photo' })).toHaveAttribute('src', 'blob:preview');
    expect(screen.getByText('me.png')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Upload photo' }));
    expect(await navigatedTo()).toBe('/account');
    expect(api.sent(UPLOAD)[0]!.body).toEqual({ content: btoa('png!'), name: 'me.png', mime: 'image/png' });
    expect(snackbarText()).toBe('Photo uploaded');
  });

  it('refuses a file that is not a JPG or PNG, before sending anything', async () => {
    const api = fakeApi(signedInRoutes());
    await renderPage(<CardAddPhotoPage />, { path: '/account/add-photo', locale: 'es' });
    await screen.findByRole('heading', { level: 1 });
    const input = screen.getByLabelText(/Elegir una foto/, { selector: 'input' });
    await userEvent.upload(input, new File(['gif'], 'me.gif', { type: 'image/gif' }), { applyAccept: false });
    const problem = screen.getByRole('alert');
    expect(problem).toHaveTextContent('Solo se pueden subir archivos JPG y PNG.');
    expect(input).toHaveAccessibleDescription(expect.stringContaining(problem.textContent!));
    expect(screen.queryByRole('button', { name: 'Subir foto' })).not.toBeInTheDocument();
    expect(api.sent(UPLOAD)).toHaveLength(0);
  });

  it('refuses an empty file', async () => {
    fakeApi(signedInRoutes());
    await renderPage(<CardAddPhotoPage />, { path: '/account/add-photo' });
    await screen.findByRole('heading', { name: 'Profile photo' });
    await userEvent.upload(picker(), png('empty.png', ''));
    expect(screen.getByRole('alert')).toHaveTextContent('The file is empty.');
  });

  it('stays with the photo when the server refuses it, for another try', async () => {
    fakeApi({ ...signedInRoutes(), [UPLOAD]: apiError(422, 'invalid_file', 'The file is not an image.') });
    await renderPage(<CardAddPhotoPage />, { path: '/account/add-photo' });
    await screen.findByRole('heading', { name: 'Profile photo' });
    await userEvent.upload(picker(), png());
    await userEvent.click(screen.getByRole('button', { name: 'Upload photo' }));
    await waitFor(() => expect(snackbarText()).toBe('This file type is not allowed'));
    expect(screen.getByRole('button', { name: 'Upload photo' })).toBeEnabled();
    expect(screen.queryByTestId('navigated-to')).not.toBeInTheDocument();
  });

  it('removes the current photo', async () => {
    const api = fakeApi({
      ...signedInRoutes({}, { image_url: PHOTO_URL }),
      [REMOVE]: cardAnswer(),
      'GET /me': signedInRoutes()['GET /me'],
    });
    await renderPage(<CardAddPhotoPage />, { path: '/account/add-photo' });
    expect(await screen.findByRole('img', { name: 'Current photo' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(snackbarText()).toBe('Photo removed'));
    expect(api.sent(REMOVE)).toHaveLength(1);
    expect(screen.queryByRole('img', { name: 'Current photo' })).not.toBeInTheDocument();
  });

  it('opens the same picker from the “Choose a photo” button', async () => {
    fakeApi(signedInRoutes());
    await renderPage(<CardAddPhotoPage />, { path: '/account/add-photo' });
    await screen.findByRole('heading', { name: 'Profile photo' });
    let opened = false;
    picker().addEventListener('click', () => (opened = true));
    await userEvent.click(screen.getByRole('button', { name: 'Choose a photo' }));
    expect(opened).toBe(true);
  });
});
