import { useQuery } from '@tanstack/react-query';
import { opsSearchHit, opsSearchKinds, type OpsSearchHit, type OpsSearchKind } from '@tipcard/shared/ops/schemas';
import { Search } from 'lucide-react';
import { Link } from 'react-router';
import { z } from 'zod';
import { ListState } from '../../components/ui/list-state.tsx';
import { formatCents, formatTime, opsGet } from '../ops-api.ts';
import { loadErrorText, Page, Table, TitledPanel, SearchForm, useSearchQuery } from '../ui.tsx';

const GROUPS: Record<OpsSearchKind, string> = {
  payment: 'Payments',
  user: 'Users',
  card: 'Cards',
  venue: 'Venues',
  donation: 'Donations (by the donor’s e-mail)',
  invoice: 'Invoices',
  card_order: 'Card orders',
  payout_method: 'Payout accounts',
};

/**
 * Where a hit leads: a venue to its page, else its payment when it has one (a payment, a paid invoice or order, a
 * gift), else its user.
 */
function hitPath(hit: OpsSearchHit): string | null {
  if (hit.kind === 'venue') return `/venues/${hit.id}`;
  return hit.payment_id ? `/payments/${hit.payment_id}` : hit.user_id ? `/users/${hit.user_id}` : null;
}

function HitLink({ hit }: { hit: OpsSearchHit }) {
  const to = hitPath(hit);
  if (!to) return <span className="font-medium">{hit.title}</span>;
  return (
    <Link to={to} className="font-medium text-primary-800 underline">
      {hit.title}
    </Link>
  );
}

function Group({ kind, hits }: { kind: OpsSearchKind; hits: OpsSearchHit[] }) {
  return (
    <TitledPanel title={GROUPS[kind]}>
      <Table
        caption={GROUPS[kind]}
        columns={['Found', 'Details', 'Amount', 'When', 'User']}
        rows={hits.map((hit) => ({
          key: hit.id,
          cells: [
            <HitLink key="hit" hit={hit} />,
            hit.detail,
            hit.amount_cents === null ? '—' : formatCents(hit.amount_cents),
            formatTime(hit.created_at),
            hit.user_id && hit.kind !== 'user' ? (
              <Link key="user" to={`/users/${hit.user_id}`} className="text-primary-800 underline">
                Open user
              </Link>
            ) : (
              '—'
            ),
          ],
        }))}
      />
    </TitledPanel>
  );
}

/**
 * One box for whatever a guest or a user quotes: the short reference of the success page and the receipt, an
 * invoice or order number, a phone in any format, a donor's e-mail, a payout account's last digits, a card id or
 * name. The results are grouped by kind, each a link to its object.
 */
export default function SearchPage() {
  const [q, search] = useSearchQuery();
  const searching = q.trim().length >= 2;
  const found = useQuery({
    queryKey: ['ops', 'search', q],
    queryFn: () => opsGet(z.array(opsSearchHit), '/search', { q }),
    enabled: searching,
  });
  return (
    <Page title="Search">
      <SearchForm
        label="Reference, phone, e-mail, IBAN's last digits, card id, venue name, invoice or order number"
        q={q}
        onSearch={search}
        className="max-w-3xl"
      />
      {searching && (
        <ListState
          query={found}
          loadingLabel="Searching…"
          errorText={loadErrorText(found.error)}
          empty={{ icon: <Search className="size-7" />, title: `Nothing matches “${q}”.` }}
        >
          {(hits) => (
            <div className="space-y-4">
              {opsSearchKinds
                .filter((kind) => hits.some((hit) => hit.kind === kind))
                .map((kind) => (
                  <Group key={kind} kind={kind} hits={hits.filter((hit) => hit.kind === kind)} />
                ))}
            </div>
          )}
        </ListState>
      )}
    </Page>
  );
}
