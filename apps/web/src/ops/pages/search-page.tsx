import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { opsSearchHit, opsSearchKinds, type OpsSearchHit, type OpsSearchKind } from '@tipcard/shared/ops/schemas';
import { Search } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { z } from 'zod';
import { Button } from '../../components/ui/button-base.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { ListState } from '../../components/ui/list-state.tsx';
import { formatCents, formatTime, opsGet } from '../ops-api.ts';
import { BESIDE_FIELDS, loadErrorText, Page, Table, TitledPanel } from '../ui.tsx';

/** The API searches from two characters on; it takes at most 100. */
const searchForm = z.object({ q: z.string().trim().min(2, 'Type at least 2 characters.').max(100) });

const GROUPS: Record<OpsSearchKind, string> = {
  payment: 'Payments',
  user: 'Users',
  card: 'Cards',
  donation: 'Donations (by the donor’s e-mail)',
  invoice: 'Invoices',
  card_order: 'Card orders',
  payout_method: 'Payout accounts',
};

/** Where a hit leads: its payment when it has one (a payment, a paid invoice or order, a gift), else its user. */
function HitLink({ hit }: { hit: OpsSearchHit }) {
  const to = hit.payment_id ? `/payments/${hit.payment_id}` : hit.user_id ? `/users/${hit.user_id}` : null;
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
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.input<typeof searchForm>, unknown, z.output<typeof searchForm>>({
    resolver: zodResolver(searchForm),
    values: { q },
  });
  const searching = q.trim().length >= 2;
  const found = useQuery({
    queryKey: ['ops', 'search', q],
    queryFn: () => opsGet(z.array(opsSearchHit), '/search', { q }),
    enabled: searching,
  });
  return (
    <Page title="Search">
      <form
        onSubmit={handleSubmit((values) => setParams({ q: values.q }))}
        className="flex max-w-3xl items-start gap-3"
        role="search"
        noValidate
      >
        <TextField
          label="Reference, phone, e-mail, IBAN's last digits, card id, invoice or order number"
          className="flex-1"
          error={errors.q?.message}
          {...register('q')}
        />
        <Button type="submit" className={BESIDE_FIELDS.md}>
          Search
        </Button>
      </form>
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
