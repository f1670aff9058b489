import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Answer, apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { operatorRow } from '../test-data.ts';
import { currentPath, findHeading, renderOps } from '../test-render.tsx';

const TOKEN = 'setup-token-0123456789abcdefghijklmnopqrstuv';
const CHECK = `GET /ops/setup/${TOKEN}`;
const SET_UP = `POST /ops/setup/${TOKEN}`;

describe('the first admin’s set-up page', () => {
  it('takes the first admin’s e-mail and goes on to their enrolment', async () => {
    const api = fakeApi({
      [CHECK]: new Answer(204, undefined),
      [SET_UP]: {
        operator: operatorRow({ email: 'first@ops.example', enrolled: false }),
        enrolment_url: 'https://tipcard.test/ops/#/enrol/enrol-token-0123456789abcdef',
      },
      'GET /ops/enrolment/enrol-token-0123456789abcdef': pending,
    });
    const { router } = renderOps(`/setup/${TOKEN}`, { role: null });
    expect(await findHeading('Set up the back office')).toBeInTheDocument();
    await userEvent.type(await screen.findByLabelText('E-mail'), 'first@ops.example');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(currentPath(router)).toBe('/enrol/enrol-token-0123456789abcdef'));
    expect(api.sent(SET_UP)[0]!.body).toEqual({ email: 'first@ops.example' });
  });

  it('says when the link no longer opens, with the way to sign-in', async () => {
    fakeApi({ [CHECK]: apiError(410, 'ops_setup_invalid', 'This set-up link is no longer valid') });
    renderOps(`/setup/${TOKEN}`, { role: null });
    expect(await screen.findByRole('alert')).toHaveTextContent('This set-up link is no longer valid');
    expect(screen.getByRole('link', { name: 'Go to sign-in' })).toBeInTheDocument();
    expect(screen.queryByLabelText('E-mail')).not.toBeInTheDocument();
  });
});
