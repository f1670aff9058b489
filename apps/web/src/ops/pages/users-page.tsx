import { useQuery } from '@tanstack/react-query';
import { opsUserSchema } from '@tipcard/shared/ops/schemas';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { z } from 'zod';
import { Button } from '../../components/ui/button-base.tsx';
import { formatTime, opsGet } from '../ops-api.ts';
import { Badge, Empty, ErrorNote, Loading, Page, Table, TextField } from '../ui.tsx';

export default function UsersPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const [draft, setDraft] = useState(q);
  const found = useQuery({
    queryKey: ['ops', 'users', q],
    queryFn: () => opsGet(z.array(opsUserSchema), '/users', { q }),
    enabled: q.length >= 2,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setParams({ q: draft.trim() });
  };
  return (
    <Page title="Users">
      <form onSubmit={submit} className="flex max-w-2xl items-end gap-3" role="search">
        <div className="flex-1">
          <TextField
            label="Phone, name, user id, card id or payment id"
            name="q"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
          />
        </div>
        <Button type="submit">Search</Button>
      </form>
      {q.length >= 2 && found.isPending && <Loading />}
      <ErrorNote error={found.error} />
      {found.data && found.data.length === 0 && <Empty>No user matches “{q}”.</Empty>}
      {found.data && found.data.length > 0 && (
        <Table
          caption="Users found"
          columns={['Phone', 'User id', 'Since', 'State']}
          rows={found.data.map((user) => ({
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
    </Page>
  );
}
