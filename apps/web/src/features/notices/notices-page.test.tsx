import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Notice, Notices } from '@tipcard/shared/notices/schemas';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { CLIENT_ID, signedInRoutes } from '../../test/fixtures.ts';
import { renderPage } from '../../test/render-page.tsx';
import NoticesPage from './notices-page.tsx';

const NOTICES = `GET /clients/${CLIENT_ID}/notices`;

const closed: Notice = {
  id: '5a1e3f6b-8c9d-4e0f-9a2b-3c4d5e6f7081',
  kind: 'team_period_closed',
  team: 'Cuisine',
  workplace: 'Café Rīga',
  rule: null,
  month: '2026-10',
  amount_cents: null,
  created_at: '2026-11-01T09:30:00Z',
  read_at: null,
};
const ruleChanged: Notice = {
  id: '6b2f4a7c-9d0e-4f1a-8b3c-4d5e6f708192',
  kind: 'team_rule_changed',
  team: 'Cuisine',
  workplace: 'Café Rīga',
  rule: 'hours',
  month: null,
  amount_cents: null,
  created_at: '2026-10-20T08:00:00Z',
  read_at: '2026-10-20T09:00:00Z',
};
const listed = (notices: Notice[]): Notices => ({
  unread: notices.filter((notice) => notice.read_at === null).length,
  notices,
});
/** French typography puts no-break spaces before its colons; compared as spaces. */
const text = (element: HTMLElement) => element.textContent!.replace(/[\u00A0\u202F]/g, ' ');

describe('the notices page', () => {
  it('says it is loading while the notices are on their way', async () => {
    fakeApi({ ...signedInRoutes(), [NOTICES]: pending });
    await renderPage(<NoticesPage />, { path: '/notices' });
    expect(await screen.findByRole('status', { name: 'Loading your notices…' })).toBeInTheDocument();
  });

  it('explains an empty list, and offers no "mark all"', async () => {
    fakeApi({ ...signedInRoutes(), [NOTICES]: listed([]) });
    await renderPage(<NoticesPage />, { path: '/notices' });
    const empty = await screen.findByTestId('notices-empty');
    expect(within(empty).getByRole('heading')).toHaveTextContent('No notices yet');
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull();
  });

  it('writes each notice in the reader’s language, the unread one marked new with its button', async () => {
    fakeApi({ ...signedInRoutes(), [NOTICES]: listed([closed, ruleChanged]) });
    await renderPage(<NoticesPage />, { path: '/notices', locale: 'fr' });
    const rows = await screen.findAllByTestId('notice-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByTestId('notice-new')).toHaveTextContent('Nouveau');
    expect(text(rows[0]!)).toContain(
      'L’administrateur a clôturé une période de pourboires. Période : octobre 2026. Équipe : Cuisine (Café Rīga).',
    );
    expect(within(rows[0]!).getByRole('button', { name: 'Marquer comme lue' })).toBeInTheDocument();
    expect(text(rows[1]!)).toContain('Règle de partage : Selon les heures travaillées');
    expect(within(rows[1]!).queryByTestId('notice-new')).toBeNull();
    expect(within(rows[1]!).queryByRole('button')).toBeNull();
  });

  it('marks one notice read, then all, showing the list the API answers', async () => {
    const second = {
      ...closed,
      id: '7c3a5b8d-0e1f-4a2b-9c3d-5e6f708192a3',
      kind: 'team_request_approved' as const,
      month: null,
      amount_cents: null,
    };
    const api = fakeApi({
      ...signedInRoutes(),
      [NOTICES]: listed([closed, second]),
      [`POST /clients/${CLIENT_ID}/notices/${closed.id}/read`]: listed([{ ...closed, read_at: '2026-11-01T10:00:00Z' }, second]),
      [`POST /clients/${CLIENT_ID}/notices/read`]: listed([
        { ...closed, read_at: '2026-11-01T10:00:00Z' },
        { ...second, read_at: '2026-11-01T10:01:00Z' },
      ]),
    });
    await renderPage(<NoticesPage />, { path: '/notices', locale: 'es' });
    const [first] = await screen.findAllByTestId('notice-row');
    await userEvent.click(within(first!).getByRole('button', { name: 'Marcar como leído' }));
    expect(await screen.findAllByRole('button', { name: 'Marcar como leído' })).toHaveLength(1);
    expect(api.sent(`POST /clients/${CLIENT_ID}/notices/${closed.id}/read`)).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'Marcar todos como leídos' }));
    await screen.findByRole('link', { name: 'Abrir la página Lugar de trabajo' });
    await expect.poll(() => screen.queryAllByRole('button', { name: 'Marcar como leído' })).toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'Marcar todos como leídos' })).toBeNull();
    expect(screen.getAllByTestId('notice-row')).toHaveLength(2);
  });

  it('offers to try again after a failed load, and shows the list once it comes', async () => {
    let failures = 1;
    const api = fakeApi({
      ...signedInRoutes(),
      [NOTICES]: () => (failures-- > 0 ? apiError(503, 'service_unavailable') : listed([closed])),
    });
    await renderPage(<NoticesPage />, { path: '/notices' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your notices could not be loaded.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('notice-row')).toHaveTextContent('The admin closed the tips of October 2026.');
    expect(api.sent(NOTICES)).toHaveLength(2);
  });
});
