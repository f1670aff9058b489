import type {
  MembershipPeriod,
  RulePreview,
  Shift,
  SplitRules,
  Team,
  TeamStatistics,
  TipShare,
  Workplace,
  TippingPolicy,
  TeamPeriod,
} from '@tipcard/shared/teams/schemas';
import type { VenueCard, VenuePercentages } from '@tipcard/shared/venue-tips/schemas';
import { CLIENT_ID, USER_ID } from '../../test/fixtures.ts';

export const TEAM_ID = '163b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5cf0';
export const COLLEAGUE_ID = '274c5d6e-7f8a-4b9c-8d1e-2f3a4b5c6d01';
export const REQUEST_ID = '385d6e7f-8a9b-4c0d-9e2f-3a4b5c6d7e12';
const NEWCOMER_ID = '496e7f8a-9b0c-4d1e-8f3a-4b5c6d7e8f23';

export const TEAM_CARD_ID = '6b8a9b0c-1d2e-4f3a-8b5c-6d7e8f9a0b45';
export const OBJECTION_ID = '7c9b0c1d-2e3f-4a5b-9c6d-7e8f9a0b1c56';

export const WORKPLACE_ID = '5a7f8a9b-0c1d-4e2f-9a4b-5c6d7e8f9a34';
export const VENUE_CARD_ID = '8dac1d2e-3f4a-4b6c-8d7e-8f9a0b1c2d67';
export const KITCHEN_ID = '9ebd2e3f-4a5b-4c7d-9e8f-9a0b1c2d3e78';

export const TEAM_ROUTES = {
  venueCard: `GET /workplaces/${WORKPLACE_ID}/venue-card`,
  venueCardQr: `GET /cards/${VENUE_CARD_ID}/qr_code`,
  percentages: `GET /workplaces/${WORKPLACE_ID}/percentages`,
  setPercentages: `PUT /workplaces/${WORKPLACE_ID}/percentages`,
  teamCardQr: `GET /cards/${TEAM_CARD_ID}/qr_code`,
  venueQr: `GET /workplaces/${WORKPLACE_ID}/qr.png`,
  venueSheet: `GET /workplaces/${WORKPLACE_ID}/print.pdf`,
  teamCardSheet: `GET /cards/${TEAM_CARD_ID}/print.pdf`,
  ownRecords: `GET /clients/${CLIENT_ID}/tip-records`,
  policy: `GET /teams/${TEAM_ID}/policy`,
  periods: `GET /teams/${TEAM_ID}/periods`,
  closePeriod: `POST /teams/${TEAM_ID}/periods/2026-10/close`,
  objectPeriod: `POST /teams/${TEAM_ID}/periods/2026-10/objections`,
  answerObjection: `POST /teams/${TEAM_ID}/periods/2026-10/objections/${OBJECTION_ID}/answer`,
  confirmPeriod: `POST /teams/${TEAM_ID}/periods/2026-10/confirm`,
  lockPeriod: `POST /teams/${TEAM_ID}/periods/2026-10/lock`,
  adjustPeriod: `POST /teams/${TEAM_ID}/periods/2026-10/adjustments`,
  publishPolicy: `POST /teams/${TEAM_ID}/policy`,
  readPolicy: `POST /teams/${TEAM_ID}/policy/1/read`,
  teamRecords: `GET /teams/${TEAM_ID}/tip-records`,
  workplace: `GET /clients/${CLIENT_ID}/workplace`,
  create: `POST /clients/${CLIENT_ID}/workplace`,
  rename: `PATCH /teams/${TEAM_ID}`,
  history: `GET /teams/${TEAM_ID}/history`,
  statistics: `GET /teams/${TEAM_ID}/statistics`,
  approve: `POST /teams/${TEAM_ID}/requests/${REQUEST_ID}/approve`,
  decline: `POST /teams/${TEAM_ID}/requests/${REQUEST_ID}/decline`,
  remove: `DELETE /teams/${TEAM_ID}/members/${COLLEAGUE_ID}`,
  grantAdmin: `POST /teams/${TEAM_ID}/admin`,
  leave: `POST /teams/${TEAM_ID}/leave`,
  rules: `GET /teams/${TEAM_ID}/rules`,
  saveRule: `POST /teams/${TEAM_ID}/rules`,
  preview: `POST /teams/${TEAM_ID}/rules/preview`,
  setRole: `PATCH /teams/${TEAM_ID}/members/${COLLEAGUE_ID}`,
  shifts: `GET /teams/${TEAM_ID}/shifts`,
  clockIn: `POST /teams/${TEAM_ID}/shifts/clock-in`,
  clockOut: `POST /teams/${TEAM_ID}/shifts/clock-out`,
  addShift: `POST /teams/${TEAM_ID}/shifts`,
  importShifts: `POST /teams/${TEAM_ID}/shifts/import`,
  tipShares: `GET /teams/${TEAM_ID}/tip-shares`,
  ownRequests: `GET /clients/${CLIENT_ID}/team-requests`,
  withdraw: `DELETE /teams/${TEAM_ID}/requests/${REQUEST_ID}`,
} as const;

/** The user's team, which the user runs unless `is_admin: false` is given. */
export function team(overrides: Partial<Team> = {}): Team {
  const isAdmin = overrides.is_admin ?? true;
  return {
    id: TEAM_ID,
    title: 'Café Rīga team',
    workplace: { id: '5a7f8a9b-0c1d-4e2f-9a4b-5c6d7e8f9a34', name: 'Café Rīga', country: 'LV' },
    card_id: TEAM_CARD_ID,
    payment_url: 'https://tipcard.test/payment/team',
    invite_url: `https://tipcard.test/team/${TEAM_ID}/join`,
    admin_user_id: isAdmin ? USER_ID : COLLEAGUE_ID,
    is_admin: isAdmin,
    members: [
      { user_id: USER_ID, public_name: 'Anna', image_url: null, is_admin: isAdmin, since: '2026-01-05T08:00:00Z', role: null },
      {
        user_id: COLLEAGUE_ID,
        public_name: 'Jānis',
        image_url: null,
        is_admin: !isAdmin,
        since: '2026-02-01T08:00:00Z',
        role: null,
      },
    ],
    requests: isAdmin
      ? [
          {
            id: REQUEST_ID,
            team_id: TEAM_ID,
            user_id: NEWCOMER_ID,
            public_name: 'Marta',
            image_url: null,
            status: 'pending',
            created_at: '2026-03-01T08:00:00Z',
          },
        ]
      : [],
    ...overrides,
  };
}

/** The user's workplace; `venue` makes the user its admin with more teams or admins (decision 0057). */
export function workplace(teamOverrides: Partial<Team> = {}, venue: Partial<Omit<Workplace, 'team'>> = {}): Workplace {
  const own = team(teamOverrides);
  return {
    id: WORKPLACE_ID,
    name: 'Café Rīga',
    country: 'LV',
    team: own,
    is_admin: false,
    teams: [{ id: own.id, title: own.title, card_id: own.card_id, member_count: own.members.length }],
    admins: [{ user_id: own.admin_user_id, public_name: 'Anna', image_url: null, team_id: own.id }],
    ...venue,
  };
}

export const venueCard: VenueCard = {
  workplace_id: WORKPLACE_ID,
  card_id: VENUE_CARD_ID,
  payment_url: `https://tipcard.test/payment/${VENUE_CARD_ID}`,
};

/** The percentages between the venue's two teams, the user's and a kitchen; `can_edit` for the admin. */
export function percentages(overrides: Partial<VenuePercentages> = {}): VenuePercentages {
  return {
    workplace_id: WORKPLACE_ID,
    id: null,
    created_at: null,
    teams: [
      { team_id: TEAM_ID, title: 'Café Rīga team', member_count: 2, basis_points: 5000 },
      { team_id: KITCHEN_ID, title: 'Kitchen', member_count: 3, basis_points: 5000 },
    ],
    can_edit: true,
    ...overrides,
  };
}

export const history: MembershipPeriod[] = [
  { user_id: COLLEAGUE_ID, public_name: 'Jānis', joined_at: '2026-02-01T08:00:00Z', left_at: null },
  { user_id: USER_ID, public_name: 'Anna', joined_at: '2026-01-05T08:00:00Z', left_at: null },
];

export function statistics(overrides: Partial<TeamStatistics> = {}): TeamStatistics {
  return {
    from: '2026-03-02T00:00:00.000Z',
    to: '2026-03-05T00:00:00.000Z',
    total_count: 7,
    total_cents: 4_200,
    members: [
      { user_id: USER_ID, public_name: 'Anna', count: 4, sum_cents: 2_400 },
      { user_id: COLLEAGUE_ID, public_name: null, count: 3, sum_cents: 1_800 },
    ],
    ...overrides,
  };
}

export const PAYMENT_ID = '5a7f8a9b-0c1d-4e2f-9a4b-5c6d7e8f9b56';

/** The team's rules: by hours since March, evenly before. */
export const rules: SplitRules = {
  current: { id: '6b8a9b0c-1d2e-4f3a-8b5c-6d7e8f9a0c67', kind: 'hours', points: {}, created_at: '2026-03-01T08:00:00Z' },
  versions: [{ id: '6b8a9b0c-1d2e-4f3a-8b5c-6d7e8f9a0c67', kind: 'hours', points: {}, created_at: '2026-03-01T08:00:00Z' }],
};

export function shift(overrides: Partial<Shift> = {}): Shift {
  return {
    id: '7c9b0c1d-2e3f-4a5b-9c6d-7e8f9a0b1d78',
    user_id: USER_ID,
    public_name: 'Anna',
    started_at: '2026-03-04T16:00:00Z',
    ended_at: '2026-03-04T23:00:00Z',
    source: 'clock',
    ...overrides,
  };
}

/** Anna's share of a 10 EUR tip by hours: 6 h of the 9 h worked by the two on shift. */
export const tipShares: TipShare[] = [
  {
    payment_id: PAYMENT_ID,
    at: '2026-03-04T21:00:00Z',
    rule: 'hours',
    basis: 'hours',
    total_cents: 1_000,
    fee_cents: 50,
    sharing: 2,
    total_weight: 540,
    role: null,
    minutes: 360,
    points: null,
    weight: 360,
    net_cents: 633,
    share_fee_cents: 33,
  },
];

export const preview: RulePreview = {
  from: '2026-02-25T00:00:00.000Z',
  to: '2026-03-05T00:00:00.000Z',
  tip_count: 1,
  total_cents: 950,
  members: [
    { user_id: USER_ID, public_name: 'Anna', received_cents: 475, candidate_cents: 633 },
    { user_id: COLLEAGUE_ID, public_name: 'Jānis', received_cents: 475, candidate_cents: 317 },
  ],
};

/** The venue's policy: version 1 in force, read by its admin only; `read_at` is the viewer's. */
export function tippingPolicy(overrides: Partial<TippingPolicy> = {}): TippingPolicy {
  return {
    current: {
      version: 1,
      text: 'Tips go to the whole team.\nSplit evenly.',
      published_at: '2026-03-01T09:00:00Z',
      read_at: null,
    },
    template: 'Tipping policy of Café Rīga\n\n1. Who receives tips',
    readers: [],
    ...overrides,
  };
}

/**
 * A team period: October 2026, ended, with tips, not closed; `overrides` move it on. Its deadline is the end of
 * November 2026.
 */
export function period(overrides: Partial<TeamPeriod> = {}): TeamPeriod {
  return {
    month: '2026-10',
    from: '2026-10-01T00:00:00.000Z',
    to: '2026-11-01T00:00:00.000Z',
    state: 'open',
    closed_at: null,
    closed_by: null,
    objections_until: null,
    locked_at: null,
    locked_by: null,
    tip_count: 12,
    total_cents: 14_250,
    sharers: 2,
    confirmed: 0,
    confirmed_by_me: false,
    open_objections: 0,
    objections: [],
    adjustments: [],
    deadline: '2026-12-01T00:00:00.000Z',
    deadline_soon: false,
    deadline_passed: false,
    can_object: false,
    can_confirm: false,
    can_close: false,
    can_lock: false,
    can_adjust: false,
    ...overrides,
  };
}

/** A month still under way (far ahead, so it is under way whenever the test runs): nothing to do yet. */
export const currentPeriod = period({
  month: '2099-01',
  from: '2099-01-01T00:00:00.000Z',
  to: '2099-02-01T00:00:00.000Z',
  deadline: '2099-03-01T00:00:00.000Z',
  tip_count: 0,
  total_cents: 0,
});

/** Jānis's objection to October, unanswered. */
export const objection: TeamPeriod['objections'][number] = {
  id: OBJECTION_ID,
  user_id: COLLEAGUE_ID,
  public_name: 'Jānis',
  text: 'My Saturday shift is missing.',
  created_at: '2026-11-02T10:00:00.000Z',
  answer: null,
  answered_at: null,
};
