import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { opsUserSchema } from '@tipcard/shared/ops/schemas';
import { UserSearch } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { z } from 'zod';
import { Button } from '../../components/ui/button-base.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { ListState } from '../../components/ui/list-state.tsx';
import { formatTime, opsGet } from '../ops-api.ts';
import { Badge, BESIDE_FIELDS, loadErrorText, Page, Table } from '../ui.tsx';

/** The API searches from two characters on (a phone's prefix, a name's start); it takes at most 100. */
const searchForm = z.object({ q: z.string().trim().min(2, 'Type at least 2 characters.').max(100) });

export default function UsersPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.input<typeof searchForm>, unknown, z.output<typeof searchForm>>({
    resolver: zodResolver(searchForm),
    defaultValues: { q },
  });
  const searching = q.length >= 2;
  const found = useQuery({
    queryKey: ['ops', 'users', q],
    queryFn: () => opsGet(z.array(opsUserSchema), '/users', { q }),
    enabled: searching,
  });
  return (
    <Page title="Users">
      <form
        onSubmit={handleSubmit((values) => setParams({ q: values.q }))}
        className="flex max-w-2xl items-start gap-3"
        role="search"
        noValidate
      >
        <TextField
          label="Phone, name, user id, card id or payment id"
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
