import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { currentPath, renderOps } from '../test-render.tsx';

const TOKEN = 'enrol-token-1';
const INFO = `GET /ops/enrolment/${TOKEN}`;
const ENROL = `POST /ops/enrolment/${TOKEN}`;
const info = {
  email: 'finance@ops.example',
  secret: 'JBSWY3DPEHPK3PXP',
  otpauth_url: 'otpauth://totp/Tipcard:finance@ops.example?secret=JBSWY3DPEHPK3PXP',
  qr_svg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
};

async function enrol(password: string, code: string) {
  await userEvent.type(await screen.findByLabelText('New password'), password);
  await userEvent.type(screen.getByLabelText('Code from the app'), code);
  await userEvent.click(screen.getByRole('button', { name: 'Finish enrolment' }));
}

describe('the enrolment page', () => {
  it('says it is loading the enrolment', async () => {
    fakeApi({ [INFO]: pending });
    renderOps(`/enrol/${TOKEN}`, { role: null });
    expect(await screen.findByRole('status', { name: 'Loading your enrolment…' })).toBeInTheDocument();
  });

  it('says why a used or expired link cannot be opened, and offers to try again', async () => {
    fakeApi({ [INFO]: apiError(404, 'not_found', 'This enrolment link is used or has expired.') });
    renderOps(`/enrol/${TOKEN}`, { role: null });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This enrolment link is used or has expired.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('shows the key to scan, then enrols and sends the operator to sign in', async () => {
    const api = fakeApi({ [INFO]: info, [ENROL]: { email: info.email } });
    const { router } = renderOps(`/enrol/${TOKEN}`, { role: null });
    expect(await screen.findByRole('img', { name: 'QR code of your authenticator key' })).toBeInTheDocument();
    expect(screen.getByTestId('totp-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');
    await enrol('Correct-horse-1', '654321');
    expect(await screen.findByText('Enrolment complete. Sign in with the next code your app shows.')).toBeInTheDocument();
    expect(currentPath(router)).toBe('/sign-in');
    expect(api.sent(ENROL)[0]!.body).toEqual({ password: 'Correct-horse-1', code: '654321' });
  });

  it('shows the password rule the API refused on the password field', async () => {
    fakeApi({
      [INFO]: info,
      [ENROL]: apiError(422, 'validation_failed', 'Invalid data', {
        password: ['Use at least 8 characters with an upper-case letter, a lower-case letter and a number.'],
      }),
    });
    renderOps(`/enrol/${TOKEN}`, { role: null });
    await enrol('weak', '654321');
    expect(await screen.findByText(/Use at least 8 characters/)).toBeInTheDocument();
    expect(screen.getByLabelText('New password')).toHaveAttribute('aria-invalid', 'true');
  });
});
