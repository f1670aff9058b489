import { beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Team, VenueAdmin } from '@tipcard/shared/teams/schemas';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { signedInRoutes, USER_ID } from '../../test/fixtures.ts';
import { renderPage, snackbarText } from '../../test/render-page.tsx';
import {
  COLLEAGUE_ID,
  history,
  rules,
  shift,
  statistics,
  percentages,
  team,
  TEAM_ID,
  TEAM_ROUTES,
  tippingPolicy,
  tipShares,
  venueCard,
  workplace,
} from './workplace-test-data.ts';
import WorkplacePage from './workplace-page.tsx';

const page = { path: '/workplace' };
const VENUE_ID = '5a7f8a9b-0c1d-4e2f-9a4b-5c6d7e8f9a34';
const KITCHEN_ID = '8d0c1d2e-3f4a-4b6c-8d7e-8f9a0b1c2d67';
const COOK_ID = '9e1d2e3f-4a5b-4c7d-9e8f-9a0b1c2d3e78';

const anna: VenueAdmin = { user_id: USER_ID, public_name: 'Anna', image_url: null, team_id: TEAM_ID };
const janis: VenueAdmin = { user_id: COLLEAGUE_ID, public_name: 'Jānis', image_url: null, team_id: TEAM_ID };

/** The kitchen, which Anna manages as a venue admin without being its member. */
const kitchen: Team = {
  ...team(),
  id: KITCHEN_ID,
  title: 'Kitchen',
  card_id: 'ae2f3a4b-5c6d-4e8f-8a9b-0c1d2e3f4a89',
  admin_user_id: USER_ID,
  is_admin: true,
  members: [
    { user_id: COOK_ID, public_name: 'Pēteris', image_url: null, is_admin: false, since: '2026-03-01T08:00:00Z', role: null },
  ],
  requests: [],
};

const venue = (admins: VenueAdmin[] = [anna]) =>
  workplace(
    {},
    {
      is_admin: true,
      teams: [
        { id: TEAM_ID, title: 'Café Rīga team', card_id: team().card_id, member_count: 2 },
        { id: KITCHEN_ID, title: 'Kitchen', card_id: kitchen.card_id, member_count: 1 },
      ],
      admins,
    },
  );

const kitchenRoutes = (teamAnswer: unknown = kitchen) => ({
  [`GET /teams/${KITCHEN_ID}`]: teamAnswer,
  [`GET /teams/${KITCHEN_ID}/rules`]: rules,
  [`GET /teams/${KITCHEN_ID}/shifts`]: [],
  [`GET /teams/${KITCHEN_ID}/policy`]: tippingPolicy(),
  [`GET /teams/${KITCHEN_ID}/periods`]: [],
  [`GET /teams/${KITCHEN_ID}/history`]: history,
  [`GET /teams/${KITCHEN_ID}/statistics`]: statistics({ members: [] }),
  [`GET /cards/${kitchen.card_id}/qr_code`]: 'png',
});

function routes(answer = venue(), overrides: Record<string, unknown> = {}) {
  return {
    ...signedInRoutes(),
    [TEAM_ROUTES.workplace]: answer,
    [TEAM_ROUTES.history]: history,
    [TEAM_ROUTES.statistics]: statistics(),
    [TEAM_ROUTES.rules]: rules,
    [TEAM_ROUTES.shifts]: [shift()],
    [TEAM_ROUTES.tipShares]: tipShares,
    [TEAM_ROUTES.teamCardQr]: 'png',
    [TEAM_ROUTES.venueQr]: 'png',
    [TEAM_ROUTES.venueCard]: venueCard,
    [TEAM_ROUTES.venueCardQr]: 'png',
    [TEAM_ROUTES.percentages]: percentages(),
    [TEAM_ROUTES.policy]: tippingPolicy(),
    [TEAM_ROUTES.periods]: [],
    ...overrides,
  };
}

const teamsList = () => screen.getByRole('list', { name: 'Teams of Café Rīga' });

beforeAll(() => {
  Object.defineProperty(URL, 'createObjectURL', { configurable: true, value: () => 'blob:tipcard-team-qr' });
  Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: () => undefined });
});

describe('the venue on the workplace page', () => {
  it('shows a member no venue panel', async () => {
    fakeApi(routes(workplace({ is_admin: false })));
    await renderPage(<WorkplacePage />, page);
    expect(await screen.findByRole('heading', { name: 'Café Rīga team' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Teams of the venue' })).not.toBeInTheDocument();
  });

  it("lists the venue's teams and says it is loading the one chosen", async () => {
    fakeApi(routes(venue(), kitchenRoutes(pending)));
    await renderPage(<WorkplacePage />, page);
    await screen.findByRole('heading', { name: 'Teams of the venue' });
    const own = within(teamsList()).getByRole('button', { name: /your team/ });
    expect(own).toHaveAttribute('aria-pressed', 'true');
    const other = within(teamsList()).getByRole('button', { name: /Kitchen.*Members: 1/ });
    expect(other).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(other);
    expect(await screen.findByRole('status', { name: 'Loading the team…' })).toBeInTheDocument();
    expect(within(teamsList()).getByRole('button', { name: /Kitchen/ })).toHaveAttribute('aria-pressed', 'true');
  });

  it('manages the chosen team, shows a load error with a retry, and keeps the member-only panels for the own team', async () => {
    let fail = true;
    fakeApi(
      routes(
        venue(),
        kitchenRoutes(() => (fail ? apiError(500, 'internal') : kitchen)),
      ),
    );
    await renderPage(<WorkplacePage />, page);
    await userEvent.click(
      within(await screen.findByRole('list', { name: 'Teams of Café Rīga' })).getByRole('button', { name: /Kitchen/ }),
    );
    expect(await screen.findByText('The team could not be loaded.')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Kitchen', level: 1 })).toBeInTheDocument();
    expect(screen.getByTestId('venue-managing')).toHaveTextContent('You manage this team as a venue admin');
    expect(within(screen.getByTestId('team-members')).getByText('Pēteris')).toBeInTheDocument();
    // Not a member: no shift of their own, no share, no leaving.
    expect(screen.queryByRole('button', { name: 'Start shift' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Leave the team' })).not.toBeInTheDocument();
    await userEvent.click(within(teamsList()).getByRole('button', { name: /Café Rīga team/ }));
    expect(await screen.findByRole('heading', { name: 'Café Rīga team', level: 1 })).toBeInTheDocument();
    expect(screen.queryByTestId('venue-managing')).not.toBeInTheDocument();
  });

  it('adds a team and opens it; a blank title is refused before sending', async () => {
    const api = fakeApi(routes(venue(), { ...kitchenRoutes(), [`POST /workplaces/${VENUE_ID}/teams`]: kitchen }));
    await renderPage(<WorkplacePage />, page);
    const add = await screen.findByRole('button', { name: 'Add the team' });
    await userEvent.click(add);
    expect(await screen.findByText(/required|Fill/i)).toBeInTheDocument();
    expect(api.sent(`POST /workplaces/${VENUE_ID}/teams`)).toHaveLength(0);
    await userEvent.type(screen.getByLabelText('Add a team'), 'Kitchen');
    await userEvent.click(add);
    await waitFor(() => expect(api.sent(`POST /workplaces/${VENUE_ID}/teams`)).toHaveLength(1));
    expect(api.sent(`POST /workplaces/${VENUE_ID}/teams`)[0]!.body).toEqual({ title: 'Kitchen' });
    await waitFor(() => expect(snackbarText()).toBe('The team was added with its own team card.'));
    expect(await screen.findByRole('heading', { name: 'Kitchen', level: 1 })).toBeInTheDocument();
  });

  it('makes a member a venue admin and removes one, never offering to remove the last', async () => {
    let admins = [anna];
    const api = fakeApi(
      routes(undefined, {
        [TEAM_ROUTES.workplace]: () => venue(admins),
        [`POST /workplaces/${VENUE_ID}/admins`]: () => (admins = [anna, janis]),
        [`DELETE /workplaces/${VENUE_ID}/admins/${COLLEAGUE_ID}`]: () => (admins = [anna]),
      }),
    );
    await renderPage(<WorkplacePage />, page);
    const adminList = await screen.findByTestId('venue-admins');
    expect(within(adminList).queryByRole('button', { name: 'Remove' })).not.toBeInTheDocument();
    expect(screen.getByText('A venue keeps at least one admin.')).toBeInTheDocument();

    const members = screen.getByTestId('team-members');
    await userEvent.click(within(members).getByRole('button', { name: 'Make venue admin' }));
    await waitFor(() => expect(api.sent(`POST /workplaces/${VENUE_ID}/admins`)).toHaveLength(1));
    expect(api.sent(`POST /workplaces/${VENUE_ID}/admins`)[0]!.body).toEqual({ user_id: COLLEAGUE_ID });
    await waitFor(() => expect(within(screen.getByTestId('venue-admins')).getAllByRole('listitem')).toHaveLength(2));
    expect(within(members).getAllByText('Venue admin')).toHaveLength(2);

    const row = within(screen.getByTestId('venue-admins')).getAllByRole('listitem')[1]!;
    expect(row).toHaveTextContent('Member of Café Rīga team');
    await userEvent.click(within(row).getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Jānis as a venue admin?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(api.sent(`DELETE /workplaces/${VENUE_ID}/admins/${COLLEAGUE_ID}`)).toHaveLength(1));
    await vi.waitFor(() => expect(snackbarText()).toBe('The venue admin was removed.'));
  });
});
