import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PublicTeam, Team, Workplace } from '@tipcard/shared/teams/schemas';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { CLIENT_ID, USER_ID, signedInRoutes } from '../../test/fixtures.ts';
import { navigatedTo, renderPage } from '../../test/render-page.tsx';
import TeamJoinPage from './team-join-page.tsx';

const TEAM_ID = 'c4d5e6f7-a8b9-4c0d-8e1f-2a3b4c5d6e7f';
const PUBLIC_TEAM = `GET /public/teams/${TEAM_ID}`;
const WORKPLACE = `GET /clients/${CLIENT_ID}/workplace`;
const REQUEST = `POST /teams/${TEAM_ID}/requests`;
const JOIN_PATH = `/teams/${TEAM_ID}/join`;

const publicTeam: PublicTeam = {
  id: TEAM_ID,
  title: 'Evening shift',
  workplace_name: 'Bar Riga',
  member_count: 3,
  members: [
    { public_name: 'Anna', image_url: null },
    { public_name: 'Kārlis', image_url: null },
    { public_name: null, image_url: null },
  ],
};

function workplaceIn(teamId: string): Workplace {
  const team: Team = {
    id: teamId,
    title: 'Evening shift',
    workplace: { id: 'd5e6f7a8-b9c0-4d1e-8f2a-3b4c5d6e7f80', name: 'Bar Riga', country: 'LV' },
    card_id: 'e6f7a8b9-c0d1-4e2f-9a3b-4c5d6e7f8091',
    payment_url: 'http://tipcard.test/payment/e6f7a8b9-c0d1-4e2f-9a3b-4c5d6e7f8091',
    invite_url: `http://tipcard.test/teams/${teamId}/join`,
    admin_user_id: USER_ID,
    is_admin: false,
    members: [],
    requests: [],
  };
  return {
    id: team.workplace.id,
    name: 'Bar Riga',
    country: 'LV',
    team,
    is_admin: false,
    teams: [{ id: team.id, title: team.title, card_id: team.card_id, member_count: 0 }],
    admins: [],
  };
}

const openJoinPage = (signedIn = true) =>
  renderPage(<TeamJoinPage />, { path: JOIN_PATH, route: '/teams/:teamId/join', signedIn });

describe('the team join page', () => {
  it('says it is loading the team', async () => {
    fakeApi({ [PUBLIC_TEAM]: pending });
    await openJoinPage(false);
    expect(await screen.findByRole('status')).toHaveTextContent('Loading…');
  });

  it('says the team was not found for a wrong invite link', async () => {
    fakeApi({ [PUBLIC_TEAM]: apiError(404, 'team_not_found') });
    await openJoinPage(false);
    expect(await screen.findByTestId('team-not-found')).toHaveTextContent('Team not found');
    expect(screen.getByText('The invite link is wrong or the team no longer exists.')).toBeInTheDocument();
  });

  it('shows the team and leads a signed-out visitor to sign up', async () => {
    fakeApi({ [PUBLIC_TEAM]: publicTeam });
    await openJoinPage(false);
    expect(await screen.findByTestId('join-team-title')).toHaveTextContent('Evening shift');
    expect(screen.getByText('at Bar Riga')).toBeInTheDocument();
    expect(screen.getByText('Members: 3')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    await userEvent.click(screen.getByRole('link', { name: 'Sign up' }));
    expect(await navigatedTo()).toBe('/registration');
  });

  it('sends a signed-in user’s request to join', async () => {
    const api = fakeApi({
      ...signedInRoutes(),
      [PUBLIC_TEAM]: publicTeam,
      [WORKPLACE]: null,
      [REQUEST]: {
        id: 'f7a8b9c0-d1e2-4f3a-8b4c-5d6e7f809102',
        team_id: TEAM_ID,
        user_id: USER_ID,
        public_name: 'Anna',
        image_url: null,
        status: 'pending',
        created_at: '2026-11-26T10:00:00Z',
      },
    });
    await openJoinPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Ask to join' }));
    expect(await screen.findByTestId('join-requested')).toHaveTextContent(
      "Your request was sent. The team's admin will approve it.",
    );
    expect(api.sent(REQUEST)).toHaveLength(1);
  });

  it('says so when the server answers that the user is already in a team', async () => {
    fakeApi({ ...signedInRoutes(), [PUBLIC_TEAM]: publicTeam, [WORKPLACE]: null, [REQUEST]: apiError(409, 'already_in_team') });
    await openJoinPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Ask to join' }));
    expect(await screen.findByTestId('join-already')).toHaveTextContent('You are already a member of a team.');
  });

  it('words another refusal through the one error map, and lets the user ask again', async () => {
    fakeApi({
      ...signedInRoutes(),
      [PUBLIC_TEAM]: publicTeam,
      [WORKPLACE]: null,
      [REQUEST]: apiError(429, 'too_many_requests', 'Too many requests'),
    });
    await openJoinPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Ask to join' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Please wait a moment and try again.');
    expect(screen.getByRole('button', { name: 'Ask to join' })).toBeEnabled();
  });

  it('opens the workplace for a member of this team', async () => {
    fakeApi({ ...signedInRoutes(), [PUBLIC_TEAM]: publicTeam, [WORKPLACE]: workplaceIn(TEAM_ID) });
    await openJoinPage();
    expect(await screen.findByText('You are a member of this team.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Open the workplace' }));
    expect(await navigatedTo()).toBe('/workplace');
  });

  it('offers no request to a member of another team', async () => {
    fakeApi({
      ...signedInRoutes(),
      [PUBLIC_TEAM]: publicTeam,
      [WORKPLACE]: workplaceIn('a8b9c0d1-e2f3-4a4b-9c5d-6e7f80910213'),
    });
    await openJoinPage();
    expect(await screen.findByTestId('join-already')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ask to join' })).not.toBeInTheDocument();
  });

  it('speaks the reader’s language', async () => {
    fakeApi({ [PUBLIC_TEAM]: publicTeam });
    await renderPage(<TeamJoinPage />, { path: JOIN_PATH, route: '/teams/:teamId/join', signedIn: false, locale: 'lv' });
    const title = await screen.findByTestId('join-team-title');
    expect(within(title.parentElement!).getByText('Pievienoties komandai')).toBeInTheDocument();
  });
});
