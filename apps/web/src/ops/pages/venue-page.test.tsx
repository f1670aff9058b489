import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { OpsVenueDetail } from '@tipcard/shared/ops/schemas';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { USER_ID } from '../test-data.ts';
import { findHeading, renderOps } from '../test-render.tsx';

const VENUE_ID = '4f0d2e5a-7b8c-4d9e-8f1a-2b3c4d5e6f70';
const BOB_ID = '5a1e3f6b-8c9d-4e0f-9a2b-3c4d5e6f7081';
const DETAIL = `GET /ops/venues/${VENUE_ID}`;
const KITCHEN_ID = '6b2f4a7c-9d0e-4f1a-8b3c-4d5e6f708192';
const HALL_ID = 'a0f6d8e1-3b4c-4d5e-8f60-8192a3b4c5d6';
const VENUE_CARD_ID = 'd3c9a1b4-6e7f-4a81-9c93-b4c5d6e7f809';
const PERCENTAGES_ID = 'e4d0b2c5-7f80-4b92-8da4-c5d6e7f8091a';
const anna = { user_id: USER_ID, public_name: 'Anna', phone: '+37120000000' };
const bob = { user_id: BOB_ID, public_name: null, phone: '+37120000001' };

const venue: OpsVenueDetail = {
  id: VENUE_ID,
  name: 'Café Rīga',
  country: 'LV',
  created_at: '2026-03-02T09:30:00Z',
  created_by: anna,
  admins: [
    { ...anna, since: '2026-03-02T09:30:00Z', added_by: anna },
    { ...bob, since: '2026-03-07T09:30:00Z', added_by: anna },
  ],
  venue_card: {
    card_id: VENUE_CARD_ID,
    payment_url: `https://tipcard.example/payment/${VENUE_CARD_ID}`,
    created_at: '2026-03-08T09:30:00Z',
  },
  percentages: {
    in_force: {
      id: PERCENTAGES_ID,
      teams: [
        { team_id: KITCHEN_ID, title: 'Kitchen', basis_points: 3_334 },
        { team_id: HALL_ID, title: 'Front of house', basis_points: 6_666 },
      ],
    },
    versions: [
      {
        id: PERCENTAGES_ID,
        created_at: '2026-03-10T09:30:00Z',
        created_by: bob,
        shares: [
          { team_id: KITCHEN_ID, title: 'Kitchen', basis_points: 3_334 },
          { team_id: HALL_ID, title: 'Front of house', basis_points: 6_666 },
        ],
      },
      {
        id: 'c2b8f0a3-5d6e-4f70-8b82-a3b4c5d6e7f8',
        created_at: '2026-03-09T09:30:00Z',
        created_by: anna,
        shares: [
          { team_id: KITCHEN_ID, title: 'Kitchen', basis_points: 5_000 },
          { team_id: HALL_ID, title: 'Front of house', basis_points: 5_000 },
        ],
      },
    ],
  },
  policies: [{ version: 1, text: 'Tips are split by hours worked.', published_at: '2026-03-03T09:30:00Z', published_by: anna }],
  teams: [
    {
      id: KITCHEN_ID,
      title: 'Kitchen',
      card_id: '7c3a5b8d-0e1f-4a2b-9c3d-5e6f708192a3',
      created_at: '2026-03-02T09:30:00Z',
      admin: anna,
      members: [
        { ...anna, joined_at: '2026-03-02T09:30:00Z', role: null },
        { ...bob, joined_at: '2026-03-04T10:00:00Z', role: 'cook' },
      ],
      rules: [
        {
          id: '8d4b6c9e-1f2a-4b3c-8d4e-6f708192a3b4',
          kind: 'points',
          points: { cook: 3 },
          created_at: '2026-04-01T08:00:00Z',
          created_by: anna,
        },
        {
          id: '9e5c7d0f-2a3b-4c4d-9e5f-708192a3b4c5',
          kind: 'hours',
          points: {},
          created_at: '2026-03-05T08:00:00Z',
          created_by: anna,
        },
      ],
      periods: [
        {
          month: '2026-03',
          state: 'locked',
          closed_at: '2026-04-01T09:00:00Z',
          closed_by: anna,
          objections_until: '2026-04-02T09:00:00Z',
          locked_at: '2026-04-02T10:00:00Z',
          locked_by: anna,
          objections: 1,
          open_objections: 0,
        },
      ],
    },
    {
      id: HALL_ID,
      title: 'Front of house',
      card_id: 'b1a7e9f2-4c5d-4e6f-9a71-92a3b4c5d6e7',
      created_at: '2026-03-06T09:30:00Z',
      admin: bob,
      members: [{ ...bob, joined_at: '2026-03-06T09:30:00Z', role: null }],
      rules: [],
      periods: [],
    },
  ],
};

describe('a venue’s page', () => {
  it('says it is loading the venue', async () => {
    fakeApi({ [DETAIL]: pending });
    renderOps(`/venues/${VENUE_ID}`, { role: 'support' });
    expect(await screen.findByRole('status', { name: 'Loading the venue…' })).toBeInTheDocument();
  });

  it('says why the venue cannot be shown, and loads again on request', async () => {
    let failures = 1;
    fakeApi({ [DETAIL]: () => (failures-- > 0 ? apiError(404, 'not_found', 'No such venue.') : venue) });
    renderOps(`/venues/${VENUE_ID}`, { role: 'finance' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('No such venue.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await findHeading('Café Rīga')).toBeInTheDocument();
  });

  it('shows each team with its admin, members, rule versions and periods, each person linking to their page', async () => {
    fakeApi({ [DETAIL]: venue });
    renderOps(`/venues/${VENUE_ID}`, { role: 'support' });
    expect(await findHeading('Café Rīga')).toBeInTheDocument();
    expect(screen.getByText('Version 1 · published by', { exact: false })).toBeInTheDocument();

    const members = screen.getByRole('table', { name: 'Members of Kitchen' });
    expect(within(members).getByRole('link', { name: 'Anna' })).toHaveAttribute('href', `/users/${USER_ID}`);
    // A member without a card of their own is named by phone.
    expect(within(members).getByRole('link', { name: '+37120000001' })).toHaveAttribute('href', `/users/${BOB_ID}`);
    expect(members).toHaveTextContent('cook');

    const rules = screen.getByRole('table', { name: 'Split rule versions of Kitchen, newest first' });
    const [, current, earlier] = within(rules).getAllByRole('row');
    expect(current).toHaveTextContent('current');
    expect(current).toHaveTextContent('By points per role');
    expect(current).toHaveTextContent('cook 3');
    expect(earlier).toHaveTextContent('By hours worked');

    const periods = screen.getByRole('table', { name: 'Periods of Kitchen, newest first' });
    expect(periods).toHaveTextContent('2026-03');
    expect(periods).toHaveTextContent('locked');
    expect(periods).toHaveTextContent('1 (0 unanswered)');

    // The second team never saved a rule nor closed a period.
    expect(screen.getByRole('heading', { name: 'Team: Front of house' })).toBeInTheDocument();
    expect(screen.getByText('None saved: tips are split evenly.')).toBeInTheDocument();
    expect(screen.getByText('No period closed yet.')).toBeInTheDocument();
  });

  it('shows the venue’s admins with who added them, its card and the percentages in force with their versions', async () => {
    fakeApi({ [DETAIL]: venue });
    renderOps(`/venues/${VENUE_ID}`, { role: 'support' });
    const admins = await screen.findByRole('table', { name: 'Venue admins, the earliest first' });
    const [, first, second] = within(admins).getAllByRole('row');
    expect(within(first!).getAllByRole('link', { name: 'Anna' })).toHaveLength(2);
    expect(within(second!).getByRole('link', { name: '+37120000001' })).toHaveAttribute('href', `/users/${BOB_ID}`);
    expect(within(second!).getByRole('link', { name: 'Anna' })).toHaveAttribute('href', `/users/${USER_ID}`);

    expect(screen.getByTestId('venue-card')).toHaveTextContent(VENUE_CARD_ID);
    expect(screen.getByRole('link', { name: `https://tipcard.example/payment/${VENUE_CARD_ID}` })).toBeInTheDocument();
    expect(screen.getByTestId('percentages-in-force')).toHaveTextContent('Kitchen 33.34%, Front of house 66.66%');

    const versions = screen.getByRole('table', { name: 'Percentage versions, newest first' });
    const [, current, earlier] = within(versions).getAllByRole('row');
    expect(current).toHaveTextContent('current');
    expect(current).toHaveTextContent('Kitchen 33.34%, Front of house 66.66%');
    expect(earlier).toHaveTextContent('Kitchen 50%, Front of house 50%');
    expect(earlier).not.toHaveTextContent('current');
  });

  it('says when the venue card is not made and the percentages were never set', async () => {
    fakeApi({
      [DETAIL]: {
        ...venue,
        venue_card: null,
        percentages: {
          in_force: {
            id: null,
            teams: [
              { team_id: KITCHEN_ID, title: 'Kitchen', basis_points: 5_000 },
              { team_id: HALL_ID, title: 'Front of house', basis_points: 5_000 },
            ],
          },
          versions: [],
        },
      },
    });
    renderOps(`/venues/${VENUE_ID}`, { role: 'support' });
    expect(await screen.findByTestId('venue-card')).toHaveTextContent('Not made yet');
    expect(screen.getByTestId('percentages-in-force')).toHaveTextContent('never set: even between the teams');
    expect(screen.getByText('None set: the venue card’s tips are split evenly between the teams.')).toBeInTheDocument();
  });
});
