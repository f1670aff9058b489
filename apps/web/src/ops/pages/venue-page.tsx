import { useQuery } from '@tanstack/react-query';
import { opsVenueDetail, type OpsVenueDetail, type OpsVenuePerson } from '@tipcard/shared/ops/schemas';
import { formatPercent } from '@tipcard/shared/venue-tips/schemas';
import { Link, useParams } from 'react-router';
import { formatTime, opsGet } from '../ops-api.ts';
import { Badge, IdLink, Page, RecordState, Table, TitledPanel } from '../ui.tsx';

type Team = OpsVenueDetail['teams'][number];

const RULE_NAMES = { even: 'Evenly', hours: 'By hours worked', points: 'By points per role' } as const;

/** A user the venue names, by public name (else phone), opening their page. */
function PersonLink({ person }: { person: OpsVenuePerson }) {
  return (
    <Link to={`/users/${person.user_id}`} className="font-medium text-primary-800 underline">
      {person.public_name ?? person.phone}
    </Link>
  );
}

/** Who did it and when, on one line. */
function ByWhom({ person, at }: { person: OpsVenuePerson; at: string }) {
  return (
    <>
      <PersonLink person={person} /> <span className="whitespace-nowrap text-slate-600">{formatTime(at)}</span>
    </>
  );
}

function rulePoints(points: Record<string, number>): string {
  const entries = Object.entries(points);
  return entries.length === 0 ? '' : entries.map(([role, value]) => `${role} ${value}`).join(', ');
}

function TeamPanel({ team }: { team: Team }) {
  const [current] = team.rules;
  return (
    <TitledPanel title={`Team: ${team.title}`}>
      <div className="space-y-4">
        <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="text-slate-500">Admin</dt>
          <dd>
            <PersonLink person={team.admin} />
          </dd>
          <dt className="text-slate-500">Created</dt>
          <dd>{formatTime(team.created_at)}</dd>
          <dt className="text-slate-500">Team card</dt>
          <dd>
            <IdLink to={`/search?q=${team.card_id}`}>{team.card_id}</IdLink>
          </dd>
          <dt className="text-slate-500">Split rule</dt>
          <dd data-testid="current-rule">
            {!current
              ? 'Evenly (never changed)'
              : rulePoints(current.points)
                ? `${RULE_NAMES[current.kind]} (${rulePoints(current.points)})`
                : RULE_NAMES[current.kind]}
          </dd>
        </dl>

        <section aria-label={`Members of ${team.title}`}>
          <h3 className="mb-2 text-sm font-semibold text-slate-700">Members ({team.members.length})</h3>
          <Table
            caption={`Members of ${team.title}`}
            columns={['Member', 'Phone', 'Joined', 'Role']}
            rows={team.members.map((member) => ({
              key: member.user_id,
              cells: [
                <span key="name">
                  <PersonLink person={member} /> {member.user_id === team.admin.user_id ? <Badge tone="blue">admin</Badge> : null}
                </span>,
                member.phone,
                formatTime(member.joined_at),
                member.role ?? '—',
              ],
            }))}
          />
        </section>

        <section aria-label={`Split rules of ${team.title}`}>
          <h3 className="mb-2 text-sm font-semibold text-slate-700">Split rule versions</h3>
          {team.rules.length === 0 ? (
            <p className="text-sm text-slate-600">None saved: tips are split evenly.</p>
          ) : (
            <Table
              caption={`Split rule versions of ${team.title}, newest first`}
              columns={['In force from', 'Rule', 'Points per role', 'Saved by']}
              rows={team.rules.map((rule, index) => ({
                key: rule.id,
                cells: [
                  <span key="from">
                    {formatTime(rule.created_at)} {index === 0 ? <Badge tone="green">current</Badge> : null}
                  </span>,
                  RULE_NAMES[rule.kind],
                  rulePoints(rule.points) || '—',
                  <PersonLink key="by" person={rule.created_by} />,
                ],
              }))}
            />
          )}
        </section>

        <section aria-label={`Periods of ${team.title}`}>
          <h3 className="mb-2 text-sm font-semibold text-slate-700">Closed and locked periods</h3>
          {team.periods.length === 0 ? (
            <p className="text-sm text-slate-600">No period closed yet.</p>
          ) : (
            <Table
              caption={`Periods of ${team.title}, newest first`}
              columns={['Month', 'State', 'Closed', 'Objections', 'Locked']}
              rows={team.periods.map((period) => ({
                key: period.month,
                cells: [
                  period.month,
                  period.state === 'locked' ? (
                    <Badge key="state" tone="green">
                      locked
                    </Badge>
                  ) : (
                    <Badge key="state" tone="amber">
                      closed
                    </Badge>
                  ),
                  <ByWhom key="closed" person={period.closed_by} at={period.closed_at} />,
                  `${period.objections} (${period.open_objections} unanswered) · until ${formatTime(period.objections_until)}`,
                  period.locked_by && period.locked_at ? (
                    <ByWhom key="locked" person={period.locked_by} at={period.locked_at} />
                  ) : (
                    '—'
                  ),
                ],
              }))}
            />
          )}
        </section>
      </div>
    </TitledPanel>
  );
}

/** Each team's percentage, in the teams' order: "Hall 60%, Kitchen 40%". */
function sharesText(shares: { title: string; basis_points: number }[]): string {
  return shares.map((share) => `${share.title} ${formatPercent(share.basis_points, 'en')}`).join(', ');
}

function AdminsPanel({ admins }: { admins: OpsVenueDetail['admins'] }) {
  return (
    // The whole row, as a team's members: a third of it squeezes the table. min-w-0: a grid item grows to its
    // table's width otherwise, and the phone's page would scroll sideways.
    <TitledPanel title="Venue admins" className="min-w-0 lg:col-span-3">
      <Table
        caption="Venue admins, the earliest first"
        columns={['Admin', 'Phone', 'Since', 'Added by']}
        rows={admins.map((admin) => ({
          key: admin.user_id,
          cells: [
            <PersonLink key="admin" person={admin} />,
            admin.phone,
            formatTime(admin.since),
            <PersonLink key="by" person={admin.added_by} />,
          ],
        }))}
      />
    </TitledPanel>
  );
}

/** The venue card (decision 0058) and the percentages between the teams that split its tips, with their versions. */
function VenueCardPanel({ venue }: { venue: OpsVenueDetail }) {
  const { venue_card: card, percentages } = venue;
  return (
    <TitledPanel title="Venue card and percentages" className="min-w-0 lg:col-span-3">
      <div className="space-y-4">
        <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="text-slate-500">Venue card</dt>
          <dd data-testid="venue-card" className="break-all">
            {card ? <IdLink to={`/search?q=${card.card_id}`}>{card.card_id}</IdLink> : 'Not made yet'}
          </dd>
          {card ? (
            <>
              <dt className="text-slate-500">Guest link</dt>
              <dd className="break-all">
                <a href={card.payment_url} className="text-primary-800 underline" target="_blank" rel="noreferrer">
                  {card.payment_url}
                </a>
              </dd>
              <dt className="text-slate-500">Made</dt>
              <dd>{formatTime(card.created_at)}</dd>
            </>
          ) : null}
          <dt className="text-slate-500">Percentages in force</dt>
          <dd data-testid="percentages-in-force">
            {sharesText(percentages.in_force.teams)}
            {percentages.in_force.id === null ? ' (never set: even between the teams)' : ''}
          </dd>
        </dl>
        <section aria-label="Percentage versions">
          <h3 className="mb-2 text-sm font-semibold text-slate-700">Percentage versions</h3>
          {percentages.versions.length === 0 ? (
            <p className="text-sm text-slate-600">None set: the venue card’s tips are split evenly between the teams.</p>
          ) : (
            <Table
              caption="Percentage versions, newest first"
              columns={['In force from', 'Percentages', 'Set by']}
              rows={percentages.versions.map((version) => ({
                key: version.id,
                cells: [
                  <span key="from">
                    {formatTime(version.created_at)}{' '}
                    {version.id === percentages.in_force.id ? <Badge tone="green">current</Badge> : null}
                  </span>,
                  sharesText(version.shares),
                  <PersonLink key="by" person={version.created_by} />,
                ],
              }))}
            />
          )}
        </section>
      </div>
    </TitledPanel>
  );
}

function VenueDetail({ venue }: { venue: OpsVenueDetail }) {
  return (
    <Page title={venue.name} actions={<Badge tone="slate">{`Venue · ${venue.country}`}</Badge>}>
      <div className="grid gap-4 lg:grid-cols-3">
        <TitledPanel title="Venue">
          <dl className="space-y-1 text-sm">
            <dt className="text-slate-500">Venue id</dt>
            <dd>
              <code className="break-all text-xs">{venue.id}</code>
            </dd>
            <dt className="text-slate-500">Country</dt>
            <dd>{venue.country}</dd>
            <dt className="text-slate-500">Created</dt>
            <dd>
              <ByWhom person={venue.created_by} at={venue.created_at} />
            </dd>
            <dt className="text-slate-500">Teams</dt>
            <dd>{venue.teams.length}</dd>
          </dl>
        </TitledPanel>
        <TitledPanel title="Tipping policy versions" className="lg:col-span-2">
          {venue.policies.length === 0 ? (
            <p className="text-sm text-slate-600">No tipping policy published.</p>
          ) : (
            <ul className="divide-y divide-slate-100 text-sm">
              {venue.policies.map((policy) => (
                <li key={policy.version} className="py-2">
                  <details>
                    <summary className="cursor-pointer">
                      Version {policy.version} · published by <PersonLink person={policy.published_by} />{' '}
                      {formatTime(policy.published_at)}
                    </summary>
                    <p className="mt-2 whitespace-pre-wrap break-words text-slate-700">{policy.text}</p>
                  </details>
                </li>
              ))}
            </ul>
          )}
        </TitledPanel>
        <AdminsPanel admins={venue.admins} />
        <VenueCardPanel venue={venue} />
      </div>
      {venue.teams.length === 0 ? (
        <TitledPanel title="Teams">
          <p className="text-sm text-slate-600">No teams.</p>
        </TitledPanel>
      ) : (
        venue.teams.map((team) => <TeamPanel key={team.id} team={team} />)
      )}
    </Page>
  );
}

/**
 * A venue for support (issue 29): read-only; its admins, venue card and percentages, tipping policy, and its teams with
 * their admins, members, split rules and periods, each person linked.
 */
export default function VenuePage() {
  const id = useParams().id ?? '';
  const detail = useQuery({ queryKey: ['ops', 'venue', id], queryFn: () => opsGet(opsVenueDetail, `/venues/${id}`) });
  return (
    <RecordState query={detail} loadingLabel="Loading the venue…">
      {(venue) => <VenueDetail venue={venue} />}
    </RecordState>
  );
}
