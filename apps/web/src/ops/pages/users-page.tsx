import { useQuery } from '@tanstack/react-query';
import { opsUserSchema } from '@tipcard/shared/ops/schemas';
import { UserSearch } from 'lucide-react';
import { Link } from 'react-router';
import { z } from 'zod';
import { ListState } from '../../components/ui/list-state.tsx';
import { formatTime, opsGet } from '../ops-api.ts';
import { Badge, loadErrorText, Page, Table, SearchForm, useSearchQuery } from '../ui.tsx';

export default function UsersPage() {
  const [q, search] = useSearchQuery();
  const searching = q.length >= 2;
  const found = useQuery({
    queryKey: ['ops', 'users', q],
    queryFn: () => opsGet(z.array(opsUserSchema), '/users', { q }),
    enabled: searching,
  });
  return (
    <Page title="Users">
      <SearchForm label="Phone, name, user id, card id or payment id" q={q} onSearch={search} className="max-w-2xl" />
      {searching && (
        <ListState
          query={found}
          loadingLabel="Searching users…"
          errorText={loadErrorText(found.error)}
          empty={{ icon: <UserSearch className="size-7" />, title: `No user matches “${q}”.` }}
        >
          {(users) => (
            <Table
              caption="Users found"
              columns={['Phone', 'User id', 'Since', 'State']}
              rows={users.map((user) => ({
                key: user.id,
                cells: [
                  <Link key="phone" to={`/users/${user.id}`} className="font-medium text-primary-800 underline">
                    {user.phone}
                  </Link>,
                  <code key="id" className="text-xs">
                    {user.id}
                  </code>,
                  formatTime(user.created_at),
                  user.blocked ? <Badge tone="red">Blocked</Badge> : <Badge tone="green">Active</Badge>,
                ],
              }))}
            />
          )}
        </ListState>
      )}
    </Page>
  );
}
