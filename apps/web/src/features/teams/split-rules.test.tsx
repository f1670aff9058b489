import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Team } from '@tipcard/shared/teams/schemas';
import { apiError, fakeApi } from '../../test/fake-api.ts';
import { signedInRoutes } from '../../test/fixtures.ts';
import { renderPage, snackbarText } from '../../test/render-page.tsx';
import {
  COLLEAGUE_ID,
  history,
  preview,
  rules,
  shift,
  statistics,
  team,
  TEAM_ROUTES,
  tippingPolicy,
  tipShares,
  percentages,
  venueCard,
  workplace,
} from './workplace-test-data.ts';
import WorkplacePage from './workplace-page.tsx';

const page = { path: '/workplace' };

function routes(teamOverrides: Partial<Team> = {}, overrides: Record<string, unknown> = {}) {
  return {
    ...signedInRoutes(),
    [TEAM_ROUTES.workplace]: workplace(teamOverrides),
    [TEAM_ROUTES.history]: history,
    [TEAM_ROUTES.statistics]: statistics(),
    [TEAM_ROUTES.rules]: rules,
    [TEAM_ROUTES.shifts]: [shift()],
    [TEAM_ROUTES.tipShares]: tipShares,
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

const panel = async (name: string) => (await screen.findByRole('heading', { level: 2, name })).closest('section')!;

describe('split rules, shifts and shares on the workplace page', () => {
  it('shows every member the rule in force, how it works and the leftover-cents rule', async () => {
    fakeApi(routes({ is_admin: false }));
    await renderPage(<WorkplacePage />, page);
    expect(await screen.findByTestId('rule-in-force', {}, { timeout: 5_000 })).toHaveTextContent(
      'In force since Mar 1, 2026: By hours worked',
    );
    const rule = await panel('Split rule');
    expect(rule).toHaveTextContent('in proportion to the time each worked in the 12 hours before it');
    expect(rule).toHaveTextContent('on a tie, to the longest-standing member');
    expect(within(rule).queryByRole('button', { name: 'Save the rule' })).not.toBeInTheDocument();
  });

  it('offers to load the rule again after it failed', async () => {
    let failures = 1;
    const api = fakeApi(
      routes({}, { [TEAM_ROUTES.rules]: () => (failures-- > 0 ? apiError(503, 'service_unavailable') : rules) }),
    );
    await renderPage(<WorkplacePage />, page);
    const rule = await panel('Split rule');
    await userEvent.click(await within(rule).findByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('rule-in-force')).toBeInTheDocument();
    expect(api.sent(TEAM_ROUTES.rules)).toHaveLength(2);
  });

  it('lets the admin preview a rule on past days against what was received, then save it', async () => {
    const api = fakeApi(routes({}, { [TEAM_ROUTES.preview]: preview, [TEAM_ROUTES.saveRule]: rules }));
    await renderPage(<WorkplacePage />, page);
    const rule = await panel('Split rule');
    await userEvent.click(await within(rule).findByRole('radio', { name: /By hours worked/ }));
    await userEvent.click(within(rule).getByRole('button', { name: 'Preview' }));
    const table = await within(rule).findByTestId('rule-preview');
    expect(table).toHaveTextContent('Anna€4.75€6.33');
    expect(table).toHaveTextContent('Jānis€4.75€3.17');
    expect(table).toHaveTextContent('Team tips: 1 · received in total: €9.50');
    const sent = api.sent(TEAM_ROUTES.preview)[0]!.body as { rule: unknown; from: string; to: string };
    expect(sent.rule).toEqual({ kind: 'hours' });
    expect(Date.parse(sent.from)).toBeLessThan(Date.parse(sent.to));
    await userEvent.click(within(rule).getByRole('button', { name: 'Save the rule' }));
    await vi.waitFor(() => expect(snackbarText()).toBe('The new rule applies to tips from now on.'));
    expect(api.sent(TEAM_ROUTES.saveRule)[0]!.body).toEqual({ kind: 'hours' });
  });

  it('asks for roles before the points rule, then sends the points per role', async () => {
    const withRoles = team({
      members: team().members.map((m, i) => ({ ...m, role: i === 0 ? 'Bar' : null })),
    });
    const api = fakeApi(routes(withRoles, { [TEAM_ROUTES.saveRule]: rules, [TEAM_ROUTES.setRole]: withRoles }));
    await renderPage(<WorkplacePage />, page);
    const rule = await panel('Split rule');
    await userEvent.click(await within(rule).findByRole('radio', { name: /By points per role/ }));
    const points = within(rule).getByRole('textbox', { name: 'Points for “Bar”' });
    await userEvent.clear(points);
    await userEvent.type(points, '-1');
    expect(within(rule).getByRole('button', { name: 'Save the rule' })).toBeDisabled();
    await userEvent.clear(points);
    await userEvent.type(points, '3');
    await userEvent.click(within(rule).getByRole('button', { name: 'Save the rule' }));
    await vi.waitFor(() => expect(api.sent(TEAM_ROUTES.saveRule)).toHaveLength(1));
    expect(api.sent(TEAM_ROUTES.saveRule)[0]!.body).toEqual({ kind: 'points', points: { Bar: 3 } });

    await userEvent.type(within(rule).getByRole('textbox', { name: 'Jānis' }), 'Kitchen');
    await userEvent.click(within(rule).getByRole('button', { name: 'Save the roles' }));
    await vi.waitFor(() => expect(snackbarText()).toBe('The roles were saved.'));
    expect(api.sent(TEAM_ROUTES.setRole)[0]!.body).toEqual({ role: 'Kitchen' });
  });

  it('lets a member start a shift, and end it once it is open', async () => {
    let open = false;
    const api = fakeApi(
      routes(
        { is_admin: false },
        {
          [TEAM_ROUTES.shifts]: () => (open ? [shift({ ended_at: null })] : [shift()]),
          [TEAM_ROUTES.clockIn]: () => {
            open = true;
            return shift({ ended_at: null });
          },
        },
      ),
    );
    await renderPage(<WorkplacePage />, page);
    const shifts = await panel('Shifts');
    await userEvent.click(await within(shifts).findByRole('button', { name: 'Start shift' }));
    await vi.waitFor(() => expect(snackbarText()).toBe('Your shift has started.'));
    expect(await within(shifts).findByRole('button', { name: 'End shift' })).toBeInTheDocument();
    expect(within(shifts).getByTestId('shifts')).toHaveTextContent('on shift now');
    expect(api.sent(TEAM_ROUTES.clockIn)).toHaveLength(1);
    expect(screen.queryByRole('heading', { name: 'Enter a shift' })).not.toBeInTheDocument();
  });

  it('says when there are no shifts', async () => {
    fakeApi(routes({ is_admin: false }, { [TEAM_ROUTES.shifts]: [] }));
    await renderPage(<WorkplacePage />, page);
    expect(await screen.findByText('No shifts in the last 7 days')).toBeInTheDocument();
  });

  it('names every bad row of a refused CSV import by its line', async () => {
    const api = fakeApi(
      routes(
        {},
        {
          [TEAM_ROUTES.importShifts]: apiError(422, 'shift_import_invalid', 'Some rows of the file are not valid', {
            'rows.3': ['member'],
            'rows.5': ['order', 'overlap'],
          }),
        },
      ),
    );
    await renderPage(<WorkplacePage />, page);
    const shifts = await panel('Shifts');
    const file = new File([`member,start,end\n${COLLEAGUE_ID},2026-03-04T16:00:00Z,2026-03-04T23:00:00Z\n`], 'shifts.csv', {
      type: 'text/csv',
    });
    await userEvent.upload(within(shifts).getByTestId('shift-import'), file);
    const problems = await within(shifts).findByRole('alert');
    expect(problems).toHaveTextContent('Line 3: no member of the team has this phone number or id');
    expect(problems).toHaveTextContent('Line 5: the end is not after the start, overlaps another shift of the member');
    expect((api.sent(TEAM_ROUTES.importShifts)[0]!.body as { csv: string }).csv).toContain(COLLEAGUE_ID);
  });

  it('shows a member the maths of their share of each team tip', async () => {
    fakeApi(routes({ is_admin: false }));
    await renderPage(<WorkplacePage />, page);
    const shares = await within(await panel('How your share was worked out')).findByTestId('tip-shares');
    expect(shares).toHaveTextContent('€6.33');
    expect(shares).toHaveTextContent('You worked 6 h 00 min of the 9 h 00 min worked by the members on shift (2).');
    expect(shares).toHaveTextContent('Rule: By hours worked · the team received €9.50 · your part of the fee: €0.33');
  });

  it("shows where a share of a venue tip came from: the team's percentage, or the others' shares spread over it", async () => {
    const ofVenue = (weight: number, totalWeight: number) => ({
      ...tipShares[0]!,
      payment_id: crypto.randomUUID(),
      rule: 'even' as const,
      basis: 'even' as const,
      total_cents: 300,
      fee_cents: 15,
      venue: { total_cents: 1_000, fee_cents: 50, basis_points: 3000, weight, total_weight: totalWeight },
    });
    fakeApi(routes({ is_admin: false }, { [TEAM_ROUTES.tipShares]: [ofVenue(3000, 10_000), ofVenue(3000, 6000)] }));
    await renderPage(<WorkplacePage />, page);
    const shares = await within(await panel('How your share was worked out')).findByTestId('tip-shares');
    const parts = within(shares).getAllByTestId('venue-part');
    expect(parts[0]).toHaveTextContent('From a venue tip of €9.50: your team’s part at 30%.');
    expect(parts[1]).toHaveTextContent('your team’s part, 30% set, with the shares of teams that had no member');
  });

  it('says when there are no team tips yet', async () => {
    fakeApi(routes({ is_admin: false }, { [TEAM_ROUTES.tipShares]: [] }));
    await renderPage(<WorkplacePage />, page);
    expect(await screen.findByText('No team tips yet')).toBeInTheDocument();
  });
});
