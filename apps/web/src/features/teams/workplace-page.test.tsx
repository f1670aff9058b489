import { beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Team } from '@tipcard/shared/teams/schemas';
import { apiError, fakeApi, pending, type SentRequest } from '../../test/fake-api.ts';
import { signedInRoutes, USER_ID } from '../../test/fixtures.ts';
import { renderPage, snackbarText } from '../../test/render-page.tsx';
import {
  COLLEAGUE_ID,
  currentPeriod,
  history,
  objection,
  period,
  REQUEST_ID,
  rules,
  shift,
  statistics,
  team,
  TEAM_ID,
  TEAM_CARD_ID,
  TEAM_ROUTES,
  tippingPolicy,
  tipShares,
  percentages,
  venueCard,
  workplace,
  WORKPLACE_ID,
} from './workplace-test-data.ts';
import WorkplacePage from './workplace-page.tsx';

const page = { path: '/workplace' };

/** A team page whose reads all answer; `overrides` replace or add routes. */
function routes(teamOverrides: Partial<Team> = {}, overrides: Record<string, unknown> = {}) {
  return {
    ...signedInRoutes(),
    [TEAM_ROUTES.workplace]: workplace(teamOverrides),
    [TEAM_ROUTES.history]: history,
    [TEAM_ROUTES.statistics]: statistics(),
    [TEAM_ROUTES.rules]: rules,
    [TEAM_ROUTES.shifts]: [shift()],
    [TEAM_ROUTES.tipShares]: tipShares,
    // jsdom has no object URLs: the page gets a stand-in address for any body.
    [TEAM_ROUTES.teamCardQr]: 'png',
    [TEAM_ROUTES.venueQr]: 'png',
    [TEAM_ROUTES.policy]: tippingPolicy(),
    [TEAM_ROUTES.periods]: [],
    [TEAM_ROUTES.venueCard]: venueCard,
    [TEAM_ROUTES.venueCardQr]: 'png',
    [TEAM_ROUTES.percentages]: percentages({ can_edit: teamOverrides.is_admin ?? true }),
    ...overrides,
  };
}

beforeAll(() => {
  Object.defineProperty(URL, 'createObjectURL', { configurable: true, value: () => 'blob:tipcard-team-qr' });
  Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: () => undefined });
});

describe('the workplace page', () => {
  it('says it is loading the workplace', async () => {
    fakeApi({ ...signedInRoutes(), [TEAM_ROUTES.workplace]: pending });
    await renderPage(<WorkplacePage />, page);
    expect(await screen.findByRole('status')).toHaveTextContent('Loading…');
  });

  it('leads a user without a team to create a workplace', async () => {
    fakeApi({ ...signedInRoutes(), [TEAM_ROUTES.workplace]: null, [TEAM_ROUTES.ownRequests]: [] });
    await renderPage(<WorkplacePage />, page);
    expect(await screen.findByRole('heading', { name: 'You are not in a team yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create a workplace' })).toHaveAttribute('href', '/workplace/create');
    expect(screen.queryByTestId('pending-request')).not.toBeInTheDocument();
  });

  it('shows a request still waiting for the admin, and takes it back', async () => {
    const waiting = {
      id: REQUEST_ID,
      team_id: TEAM_ID,
      team_title: 'Café Rīga team',
      workplace_name: 'Café Rīga',
      created_at: '2026-11-20T09:30:00Z',
    };
    let requests = [waiting];
    const api = fakeApi({
      ...signedInRoutes(),
      [TEAM_ROUTES.workplace]: null,
      [TEAM_ROUTES.ownRequests]: () => requests,
      [TEAM_ROUTES.withdraw]: () => {
        requests = [];
        return { ...team().requests[0], status: 'withdrawn' };
      },
    });
    await renderPage(<WorkplacePage />, page);
    const pendingRequest = await screen.findByTestId('pending-request');
    expect(within(pendingRequest).getByRole('heading', { name: 'Waiting for approval' })).toBeInTheDocument();
    expect(pendingRequest).toHaveTextContent('TeamCafé Rīga team');
    expect(pendingRequest).toHaveTextContent('WorkplaceCafé Rīga');
    await userEvent.click(within(pendingRequest).getByRole('button', { name: 'Withdraw request' }));
    await waitFor(() => expect(screen.queryByTestId('pending-request')).not.toBeInTheDocument());
    expect(snackbarText()).toBe('Request withdrawn.');
    expect(api.sent(TEAM_ROUTES.withdraw)).toHaveLength(1);
    expect(screen.getByRole('heading', { name: 'You are not in a team yet' })).toBeInTheDocument();
  });

  it('offers to try again after a failed load', async () => {
    let failures = 1;
    const api = fakeApi(
      routes({}, { [TEAM_ROUTES.workplace]: () => (failures-- > 0 ? apiError(503, 'service_unavailable') : workplace()) }),
    );
    await renderPage(<WorkplacePage />, page);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The workplace could not be loaded.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Café Rīga team' })).toBeInTheDocument();
    expect(api.sent(TEAM_ROUTES.workplace)).toHaveLength(2);
  });

  it('shows the admin the team, its members, requests, invite link, statistics and history', async () => {
    fakeApi(routes());
    await renderPage(<WorkplacePage />, page);
    expect(await screen.findByRole('heading', { level: 1, name: 'Café Rīga team' })).toBeInTheDocument();
    expect(screen.getByText('Café Rīga')).toBeInTheDocument();
    const members = within(screen.getByTestId('team-members')).getAllByRole('listitem');
    expect(members[0]).toHaveTextContent('Anna (you)');
    expect(members[0]).toHaveTextContent('Admin');
    expect(within(members[1]!).getByRole('button', { name: 'Make admin' })).toBeInTheDocument();
    expect(within(screen.getByTestId('team-requests')).getByText('Marta')).toBeInTheDocument();
    expect(screen.getByTestId('invite-url')).toHaveValue(workplace().team.invite_url);
    const table = await screen.findByTestId('team-statistics');
    expect(table).toHaveTextContent('Anna4€24.00');
    // A member without a name in the statistics is named as in the team.
    expect(table).toHaveTextContent('Jānis3€18.00');
    expect(table).toHaveTextContent('Total7€42.00');
    const periods = within(await screen.findByTestId('team-history')).getAllByRole('listitem');
    expect(periods).toHaveLength(2);
    expect(periods[0]).toHaveTextContent('Jānis');
    expect(periods[0]).toHaveTextContent('now');
  });

  it('gives the admin the team card’s QR code to download, a sheet to print and the card shop with the team card', async () => {
    const api = fakeApi(routes({}, { [TEAM_ROUTES.teamCardSheet]: 'pdf' }));
    await renderPage(<WorkplacePage />, page);
    const panel = (await screen.findByRole('heading', { name: 'Team card' })).closest('section, div')!;
    expect(await within(panel as HTMLElement).findByRole('img', { name: 'QR code of the team card' })).toHaveAttribute(
      'src',
      'blob:tipcard-team-qr',
    );
    expect(api.sent(TEAM_ROUTES.teamCardQr)[0]!.query.get('url')).toBe(workplace().team.payment_url);
    // The venue card's panel has its own link to the card shop.
    expect(within(panel as HTMLElement).getByRole('link', { name: 'Order printed cards' })).toHaveAttribute(
      'href',
      `/card-orders?card=${TEAM_CARD_ID}`,
    );
    await userEvent.click(within(panel as HTMLElement).getByRole('button', { name: 'Print sheet (PDF)' }));
    await vi.waitFor(() => expect(api.sent(TEAM_ROUTES.teamCardSheet)).toHaveLength(1));
  });

  it('gives the admin the venue’s QR code, which opens the venue page, to download and print', async () => {
    const api = fakeApi(routes({}, { [TEAM_ROUTES.venueSheet]: 'pdf' }));
    await renderPage(<WorkplacePage />, page);
    const panel = within((await screen.findByRole('heading', { name: 'Venue QR code' })).closest('section')!);
    expect(await panel.findByRole('img', { name: 'QR code of the venue page' })).toHaveAttribute('src', 'blob:tipcard-team-qr');
    expect(panel.getByRole('link', { name: 'Open the venue page' })).toHaveAttribute('href', `/venue/${WORKPLACE_ID}`);
    await userEvent.click(panel.getByRole('button', { name: 'Print sheet (PDF)' }));
    await vi.waitFor(() => expect(api.sent(TEAM_ROUTES.venueSheet)).toHaveLength(1));
    expect(api.sent(TEAM_ROUTES.venueSheet)[0]!.query.get('locale')).toBe('en');
  });

  it('says when the venue’s QR code could not be loaded', async () => {
    fakeApi(routes({}, { [TEAM_ROUTES.venueQr]: apiError(503, 'service_unavailable') }));
    await renderPage(<WorkplacePage />, page);
    const panel = within((await screen.findByRole('heading', { name: 'Venue QR code' })).closest('section')!);
    expect(await panel.findByRole('alert')).toHaveTextContent('The QR code could not be loaded.');
    expect(panel.getByRole('button', { name: 'Download QR code' })).toBeDisabled();
  });

  it('downloads the member’s own records of last month in two taps, and the admin every member’s for the chosen period', async () => {
    const api = fakeApi(routes({}, { [TEAM_ROUTES.ownRecords]: 'pdf', [TEAM_ROUTES.teamRecords]: 'csv' }));
    await renderPage(<WorkplacePage />, page);
    const own = within(await screen.findByRole('group', { name: 'Your tip records' }));
    await userEvent.click(own.getByRole('button', { name: 'Download PDF' }));
    await vi.waitFor(() => expect(api.sent(TEAM_ROUTES.ownRecords)).toHaveLength(1));
    const asked = api.sent(TEAM_ROUTES.ownRecords)[0]!.query;
    const now = new Date();
    expect(asked.get('from')).toBe(new Date(now.getFullYear(), now.getMonth() - 1, 1).toISOString());
    expect(asked.get('to')).toBe(new Date(now.getFullYear(), now.getMonth(), 1).toISOString());
    expect(asked.get('format')).toBe('pdf');
    expect(asked.get('time_zone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);

    const all = within(screen.getByRole('group', { name: 'Records of every member' }));
    await userEvent.click(all.getByRole('button', { name: 'Download CSV' }));
    await vi.waitFor(() => expect(api.sent(TEAM_ROUTES.teamRecords)).toHaveLength(1));
    // The statistics' period (this week) is the one downloaded.
    expect(api.sent(TEAM_ROUTES.teamRecords)[0]!.query.get('from')).toBe(api.sent(TEAM_ROUTES.statistics)[0]!.query.get('from'));
    expect(api.sent(TEAM_ROUTES.teamRecords)[0]!.query.get('format')).toBe('csv');
  });

  it('says when the records could not be downloaded, and waits for complete dates', async () => {
    fakeApi(routes({}, { [TEAM_ROUTES.ownRecords]: apiError(503, 'service_unavailable') }));
    await renderPage(<WorkplacePage />, page);
    const panel = (await screen.findByRole('heading', { name: 'Your tip records' })).parentElement!;
    await userEvent.click(within(panel).getByRole('button', { name: 'Download PDF' }));
    expect(await within(panel).findByRole('alert')).toHaveTextContent('The records could not be downloaded. Try again.');
    await userEvent.click(within(panel).getByRole('button', { name: 'Dates' }));
    expect(within(panel).getByRole('button', { name: 'Download PDF' })).toBeDisabled();
  });

  it('lets a member read the tipping policy in force and confirm it, once', async () => {
    const api = fakeApi(
      routes(
        { is_admin: false },
        {
          [TEAM_ROUTES.readPolicy]: tippingPolicy({ current: { ...tippingPolicy().current!, read_at: '2026-03-02T10:00:00Z' } }),
        },
      ),
    );
    await renderPage(<WorkplacePage />, page);
    const panel = within((await screen.findByRole('heading', { name: 'Tipping policy' })).closest('section')!);
    expect(await panel.findByTestId('tipping-policy-text')).toHaveTextContent('Tips go to the whole team. Split evenly.');
    expect(panel.getByText('Version 1, published on March 1, 2026')).toBeInTheDocument();
    expect(panel.queryByRole('button', { name: 'Write a new version' })).not.toBeInTheDocument();
    await userEvent.click(panel.getByRole('button', { name: 'I have read it' }));
    expect(await panel.findByTestId('tipping-policy-read')).toHaveTextContent('You confirmed reading it on March 2, 2026.');
    expect(api.sent(TEAM_ROUTES.readPolicy)).toHaveLength(1);
    expect(panel.queryByRole('button', { name: 'I have read it' })).not.toBeInTheDocument();
  });

  it('lets the admin write a new version from the template, publish it after confirming, and see who read it', async () => {
    const published = tippingPolicy({
      current: { version: 1, text: 'Our policy', published_at: '2026-03-01T09:00:00Z', read_at: '2026-03-01T09:00:00Z' },
      readers: [
        { user_id: USER_ID, public_name: 'Anna', read_at: '2026-03-01T09:00:00Z' },
        { user_id: COLLEAGUE_ID, public_name: 'Jānis', read_at: null },
      ],
    });
    const api = fakeApi(
      routes({}, { [TEAM_ROUTES.policy]: tippingPolicy({ current: null }), [TEAM_ROUTES.publishPolicy]: published }),
    );
    await renderPage(<WorkplacePage />, page);
    const panel = within((await screen.findByRole('heading', { name: 'Tipping policy' })).closest('section')!);
    expect(await panel.findByText('The admin has not published a tipping policy yet.')).toBeInTheDocument();
    await userEvent.click(panel.getByRole('button', { name: 'Write a new version' }));
    const editor = panel.getByRole('textbox', { name: /Policy text/ });
    expect(editor).toHaveValue('Tipping policy of Café Rīga\n\n1. Who receives tips');
    await userEvent.clear(editor);
    await userEvent.type(editor, 'Our policy');
    await userEvent.click(panel.getByRole('button', { name: 'Publish' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Publish this version?' }));
    expect(api.sent(TEAM_ROUTES.publishPolicy)).toHaveLength(0);
    await userEvent.click(dialog.getByRole('button', { name: 'Publish' }));
    await vi.waitFor(() => expect(snackbarText()).toBe('The new version is published.'));
    expect(api.sent(TEAM_ROUTES.publishPolicy)[0]!.body).toEqual({ text: 'Our policy' });
    const readers = within(panel.getByTestId('tipping-policy-readers')).getAllByRole('listitem');
    expect(readers[0]).toHaveTextContent('AnnaMarch 1, 2026');
    expect(readers[1]).toHaveTextContent('JānisNot yet');
  });

  it('shows a member neither the requests nor the admin’s buttons', async () => {
    fakeApi(routes({ is_admin: false }));
    await renderPage(<WorkplacePage />, page);
    await screen.findByTestId('team-members');
    expect(screen.queryByRole('heading', { name: 'Join requests' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Rename' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Team card' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Venue QR code' })).not.toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Records of every member' })).not.toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Your tip records' })).toBeInTheDocument();
  });

  it('approves a join request', async () => {
    const api = fakeApi(routes({}, { [TEAM_ROUTES.approve]: team().requests[0] }));
    await renderPage(<WorkplacePage />, page);
    const requests = await screen.findByTestId('team-requests');
    await userEvent.click(within(requests).getByRole('button', { name: 'Approve' }));
    await vi.waitFor(() => expect(snackbarText()).toBe('The colleague joined the team.'));
    expect(api.sent(TEAM_ROUTES.approve)).toHaveLength(1);
  });

  it('declines a join request', async () => {
    const api = fakeApi(routes({}, { [TEAM_ROUTES.decline]: { ...team().requests[0], status: 'declined' } }));
    await renderPage(<WorkplacePage />, page);
    const requests = await screen.findByTestId('team-requests');
    await userEvent.click(within(requests).getByRole('button', { name: 'Decline' }));
    await vi.waitFor(() => expect(snackbarText()).toBe('The request was declined.'));
    expect(api.sent(TEAM_ROUTES.decline)).toHaveLength(1);
  });

  it('says when there are no requests', async () => {
    fakeApi(routes({ requests: [] }));
    await renderPage(<WorkplacePage />, page);
    expect(await screen.findByText('No pending requests.')).toBeInTheDocument();
  });

  it('removes a member after asking', async () => {
    const api = fakeApi(routes({}, { [TEAM_ROUTES.remove]: { done: true } }));
    await renderPage(<WorkplacePage />, page);
    await userEvent.click(await screen.findByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Jānis?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await vi.waitFor(() => expect(snackbarText()).toBe('The member was removed.'));
    expect(api.sent(TEAM_ROUTES.remove)).toHaveLength(1);
  });

  it('hands admin access to another member after asking', async () => {
    const api = fakeApi(routes({}, { [TEAM_ROUTES.grantAdmin]: team({ is_admin: false }) }));
    await renderPage(<WorkplacePage />, page);
    await userEvent.click(await screen.findByRole('button', { name: 'Make admin' }));
    const dialog = await screen.findByRole('dialog', { name: 'Hand admin access to Jānis?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Hand over admin' }));
    await vi.waitFor(() => expect(snackbarText()).toBe('Admin access was handed over.'));
    expect(api.sent(TEAM_ROUTES.grantAdmin)[0]!.body).toEqual({ user_id: COLLEAGUE_ID });
  });

  it('renames the team', async () => {
    let title = 'Café Rīga team';
    const api = fakeApi(
      routes(
        {},
        {
          [TEAM_ROUTES.workplace]: () => workplace({ title }),
          [TEAM_ROUTES.rename]: (request: SentRequest) => {
            title = (request.body as { title: string }).title;
            return team({ title });
          },
        },
      ),
    );
    await renderPage(<WorkplacePage />, page);
    await userEvent.click(await screen.findByRole('button', { name: 'Rename' }));
    const field = screen.getByRole('textbox', { name: 'Team title' });
    expect(field).toHaveValue('Café Rīga team');
    await userEvent.clear(field);
    await userEvent.type(field, '  Terrace crew ');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Terrace crew' })).toBeInTheDocument();
    expect(api.sent(TEAM_ROUTES.rename)[0]!.body).toEqual({ title: 'Terrace crew' });
  });

  it('refuses a blank title and sends nothing; cancel keeps the old one', async () => {
    const api = fakeApi(routes());
    await renderPage(<WorkplacePage />, page);
    await userEvent.click(await screen.findByRole('button', { name: 'Rename' }));
    await userEvent.clear(screen.getByRole('textbox', { name: 'Team title' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(api.sent(TEAM_ROUTES.rename)).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Café Rīga team' })).toBeInTheDocument();
  });

  it('shows the title the server refused on the field', async () => {
    fakeApi(
      routes(
        {},
        {
          [TEAM_ROUTES.rename]: apiError(422, 'validation_failed', 'Validation failed', {
            title: ['This title is already taken at this workplace.'],
          }),
        },
      ),
    );
    await renderPage(<WorkplacePage />, page);
    await userEvent.click(await screen.findByRole('button', { name: 'Rename' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Team title' }), ' 2');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This title is already taken at this workplace.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Team title' })).toHaveAttribute('aria-invalid', 'true');
  });

  it('asks for this month’s statistics, then for chosen dates once both are there', async () => {
    const api = fakeApi(routes());
    await renderPage(<WorkplacePage />, page);
    await screen.findByTestId('team-statistics');
    const periods = within(screen.getByRole('group', { name: 'Statistics' }));
    await userEvent.click(periods.getByRole('button', { name: 'This month' }));
    expect(periods.getByRole('button', { name: 'This month' })).toHaveAttribute('aria-pressed', 'true');
    await vi.waitFor(() => expect(api.sent(TEAM_ROUTES.statistics)).toHaveLength(2));
    await userEvent.click(periods.getByRole('button', { name: 'Dates' }));
    await userEvent.type(screen.getByLabelText('From'), '2026-02-01');
    expect(api.sent(TEAM_ROUTES.statistics)).toHaveLength(2);
    await userEvent.type(screen.getByLabelText('To'), '2026-02-28');
    await vi.waitFor(() => expect(api.sent(TEAM_ROUTES.statistics)).toHaveLength(3));
    const range = api.sent(TEAM_ROUTES.statistics)[2]!.query;
    expect(new Date(range.get('from')!).getDate()).toBe(1);
    expect(new Date(range.get('to')!).getMonth()).toBe(2);
  });

  it('says when the statistics could not be loaded', async () => {
    fakeApi(routes({}, { [TEAM_ROUTES.statistics]: apiError(503, 'service_unavailable') }));
    await renderPage(<WorkplacePage />, page);
    expect(await screen.findByText('The statistics could not be loaded.')).toBeInTheDocument();
  });

  it('holds a place for the work history while it loads', async () => {
    fakeApi(routes({}, { [TEAM_ROUTES.history]: pending }));
    await renderPage(<WorkplacePage />, page);
    expect(await screen.findByRole('status', { name: 'Loading the work history…' })).toBeInTheDocument();
  });

  it('says when the work history is empty', async () => {
    fakeApi(routes({}, { [TEAM_ROUTES.history]: [] }));
    await renderPage(<WorkplacePage />, page);
    expect(await screen.findByRole('heading', { name: 'No work history yet' })).toBeInTheDocument();
  });

  it('offers to load the work history again after it failed', async () => {
    let failures = 1;
    fakeApi(routes({}, { [TEAM_ROUTES.history]: () => (failures-- > 0 ? apiError(503, 'service_unavailable') : history) }));
    await renderPage(<WorkplacePage />, page);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The work history could not be loaded.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(within(await screen.findByTestId('team-history')).getAllByRole('listitem')).toHaveLength(2);
  });

  it('lets a member leave the team after asking', async () => {
    let left = false;
    const api = fakeApi(
      routes(
        { is_admin: false },
        {
          [TEAM_ROUTES.workplace]: () => (left ? null : workplace({ is_admin: false })),
          [TEAM_ROUTES.ownRequests]: [],
          [TEAM_ROUTES.leave]: () => {
            left = true;
            return { done: true };
          },
        },
      ),
    );
    await renderPage(<WorkplacePage />, page);
    await userEvent.click(await screen.findByRole('button', { name: 'Leave the team' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave the team?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Leave' }));
    expect(await screen.findByRole('heading', { name: 'You are not in a team yet' })).toBeInTheDocument();
    expect(snackbarText()).toBe('You left the team.');
    expect(api.sent(TEAM_ROUTES.leave)).toHaveLength(1);
  });

  it('asks the admin to hand over admin access before leaving', async () => {
    fakeApi(routes());
    await renderPage(<WorkplacePage />, page);
    await userEvent.click(await screen.findByRole('button', { name: 'Leave the team' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave the team?' });
    expect(dialog).toHaveTextContent('Hand admin access over to another member before you leave.');
    expect(within(dialog).queryByRole('button', { name: 'Leave' })).not.toBeInTheDocument();
  });
});

describe('the periods panel and the deadline warning', () => {
  const periodsPanel = async () =>
    within((await screen.findByRole('heading', { level: 2, name: 'Periods' })).closest('section')!);

  it('warns the admin of a deadline, closes an ended month and locks it, each after a confirmation', async () => {
    let october = period({ can_close: true, deadline_soon: true });
    const api = fakeApi(
      routes(
        {},
        {
          [TEAM_ROUTES.periods]: () => [currentPeriod, october],
          [TEAM_ROUTES.closePeriod]: () => {
            october = period({
              state: 'closed',
              closed_at: '2026-11-02T09:00:00.000Z',
              objections_until: '2026-11-03T09:00:00.000Z',
              confirmed: 2,
              can_lock: true,
              deadline_soon: true,
            });
            return october;
          },
          [TEAM_ROUTES.lockPeriod]: () => {
            october = period({
              state: 'locked',
              locked_at: '2026-11-03T10:00:00.000Z',
              locked_by: { user_id: USER_ID, public_name: 'Anna' },
            });
            return october;
          },
        },
      ),
    );
    await renderPage(<WorkplacePage />, page);
    expect(await screen.findByTestId('deadline-banner')).toHaveTextContent(
      'Close and lock October 2026: its tips must reach the team by November 30, 2026.',
    );
    const panel = await periodsPanel();
    expect(within(panel.getByTestId('period-2099-01')).getByTestId('period-state')).toHaveTextContent('In progress');
    const row = within(panel.getByTestId('period-2026-10'));
    expect(row.getByTestId('period-state')).toHaveTextContent('Not closed');
    expect(panel.getByTestId('period-2026-10')).toHaveTextContent('Tips: 12 · €142.50');
    expect(panel.getByTestId('period-2026-10')).toHaveTextContent('The tips must reach the team by November 30, 2026');

    await userEvent.click(row.getByRole('button', { name: 'Close period' }));
    const closing = await screen.findByRole('dialog', { name: 'Close October 2026?' });
    expect(api.sent(TEAM_ROUTES.closePeriod)).toHaveLength(0);
    await userEvent.click(within(closing).getByRole('button', { name: 'Close period' }));
    await waitFor(() => expect(snackbarText()).toBe('Period closed: members have 24 hours to object'));
    expect(api.sent(TEAM_ROUTES.closePeriod)).toHaveLength(1);
    await waitFor(() => expect(row.getByTestId('period-state')).toHaveTextContent('Closed'));

    await userEvent.click(row.getByRole('button', { name: 'Lock period' }));
    const locking = await screen.findByRole('dialog', { name: 'Lock October 2026?' });
    expect(locking).toHaveTextContent('A locked period never changes: its shares are final.');
    await userEvent.click(within(locking).getByRole('button', { name: 'Lock period' }));
    await waitFor(() => expect(row.getByTestId('period-state')).toHaveTextContent('Locked'));
    expect(api.sent(TEAM_ROUTES.lockPeriod)).toHaveLength(1);
    expect(panel.getByTestId('period-2026-10')).toHaveTextContent('Locked on Nov 3, 2026');
    expect(screen.queryByTestId('deadline-banner')).not.toBeInTheDocument();
  });

  it('lets the admin answer an objection, and shows no deadline warning to a member', async () => {
    const closed = { state: 'closed' as const, objections_until: '2026-11-03T09:00:00.000Z', deadline_soon: true };
    const api = fakeApi(
      routes(
        {},
        {
          [TEAM_ROUTES.periods]: [period({ ...closed, objections: [objection], open_objections: 1 })],
          [TEAM_ROUTES.answerObjection]: period({
            ...closed,
            objections: [{ ...objection, answer: 'Added: see November.', answered_at: '2026-11-02T12:00:00.000Z' }],
          }),
        },
      ),
    );
    await renderPage(<WorkplacePage />, page);
    const panel = await periodsPanel();
    expect(await panel.findByTestId('period-objection')).toHaveTextContent('My Saturday shift is missing.');
    expect(panel.queryByRole('button', { name: 'Lock period' })).not.toBeInTheDocument();
    await userEvent.type(panel.getByLabelText('Your answer'), 'Added: see November.');
    await userEvent.click(panel.getByRole('button', { name: 'Send answer' }));
    await waitFor(() => expect(snackbarText()).toBe('Answer sent'));
    expect(api.sent(TEAM_ROUTES.answerObjection)[0]!.body).toEqual({ answer: 'Added: see November.' });
  });

  it('lets a member object within the 24 hours and read the answer, or confirm', async () => {
    const closed = period({
      state: 'closed',
      objections_until: '2026-11-03T09:00:00.000Z',
      deadline_soon: true,
      can_object: true,
      can_confirm: true,
    });
    let current = closed;
    const api = fakeApi(
      routes(
        { is_admin: false },
        {
          [TEAM_ROUTES.periods]: () => [current],
          [TEAM_ROUTES.objectPeriod]: () => {
            current = period({
              ...closed,
              can_object: false,
              can_confirm: false,
              objections: [{ ...objection, user_id: USER_ID, public_name: 'Anna', text: 'Where is my tip of the 12th?' }],
            });
            return current;
          },
        },
      ),
    );
    await renderPage(<WorkplacePage />, page);
    const panel = await periodsPanel();
    expect(await panel.findByText('Objections until Nov 3, 2026, 9:00 AM', { exact: false })).toBeInTheDocument();
    expect(screen.queryByTestId('deadline-banner')).not.toBeInTheDocument();
    expect(panel.getByRole('button', { name: 'My share is right' })).toBeInTheDocument();
    await userEvent.click(panel.getByRole('button', { name: 'Object' }));
    await userEvent.type(panel.getByLabelText(/Your objection/), 'Where is my tip of the 12th?');
    await userEvent.click(panel.getByRole('button', { name: 'Send objection' }));
    await waitFor(() => expect(snackbarText()).toBe('Objection sent to the admin'));
    expect(api.sent(TEAM_ROUTES.objectPeriod)[0]!.body).toEqual({ text: 'Where is my tip of the 12th?' });
    expect(await panel.findByTestId('period-objection')).toHaveTextContent('Waiting for the admin’s answer');
    expect(panel.queryByRole('button', { name: 'Object' })).not.toBeInTheDocument();
    expect(panel.queryByLabelText('Your answer')).not.toBeInTheDocument();
  });
});
