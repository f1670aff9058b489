import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { opsUser, USER_ID } from '../test-data.ts';
import { currentPath, findHeading, renderOps } from '../test-render.tsx';

const SEARCH = 'GET /ops/users';

async function search(text: string) {
  await userEvent.type(await screen.findByLabelText('Phone, name, user id, card id or payment id'), text);
  await userEvent.click(screen.getByRole('button', { name: 'Search' }));
}

describe('the users page', () => {
  it('asks for two characters before searching', async () => {
    const api = fakeApi({});
    renderOps('/users');
    await search('7');
    expect(await screen.findByText('Type at least 2 characters.')).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it('searches, keeps the search in the address and opens a user', async () => {
    const api = fakeApi({
      [SEARCH]: [opsUser(), opsUser({ id: '1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b', phone: '+37129999999', blocked: true })],
      [`GET /ops/users/${USER_ID}`]: pending,
    });
    const { router } = renderOps('/users');
    await search(' +3712 ');
    const table = await screen.findByRole('table', { name: 'Users found' });
    expect(currentPath(router)).toBe('/users?q=%2B3712');
    expect(api.sent(SEARCH)[0]!.query.get('q')).toBe('+3712');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('Active');
    expect(rows[1]).toHaveTextContent('Blocked');
    await userEvent.click(within(rows[0]!).getByRole('link', { name: '+37120000000' }));
    expect(currentPath(router)).toBe(`/users/${USER_ID}`);
  });

  it('says so when no user matches', async () => {
    fakeApi({ [SEARCH]: [] });
    renderOps('/users?q=Nobody');
    expect(await screen.findByRole('heading', { name: 'No user matches “Nobody”.' })).toBeInTheDocument();
    expect(screen.getByLabelText('Phone, name, user id, card id or payment id')).toHaveValue('Nobody');
  });

  it('shows the search while it runs', async () => {
    fakeApi({ [SEARCH]: pending });
    renderOps('/users?q=Anna');
    expect(await screen.findByRole('status', { name: 'Searching users…' })).toBeInTheDocument();
  });

  it('shows why the search failed', async () => {
    fakeApi({ [SEARCH]: apiError(403, 'forbidden', 'Your role may not search users.') });
    renderOps('/users?q=Anna');
    await findHeading('Users');
    expect(await screen.findByRole('alert')).toHaveTextContent('Your role may not search users.');
  });
});
