import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createdOperator, operatorRoles, operatorSchema } from '@tipcard/shared/ops/schemas';
import { useState, type FormEvent } from 'react';
import { z } from 'zod';
import { Button } from '../../components/ui/button-base.tsx';
import { formatTime, opsGet, opsPost } from '../ops-api.ts';
import { Badge, Card, ErrorNote, Loading, Page, SelectField, Table, TextField } from '../ui.tsx';

export default function OperatorsPage() {
  const queryClient = useQueryClient();
  const operators = useQuery({
    queryKey: ['ops', 'operators'],
    queryFn: () => opsGet(z.array(operatorSchema), '/operators'),
  });
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<(typeof operatorRoles)[number]>('support');
  const create = useMutation({
    mutationFn: () => opsPost(createdOperator, '/operators', { email, role }),
    onSuccess: () => {
      setEmail('');
      void queryClient.invalidateQueries({ queryKey: ['ops', 'operators'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <Page title="Operators">
      <Card title="Add an operator">
        <form onSubmit={submit} className="grid max-w-3xl grid-cols-[2fr_1fr_auto] items-end gap-3">
          <TextField label="E-mail" name="email" type="email" value={email} onChange={(event) => setEmail(event.target.value)} />
          <SelectField label="Role" value={role} onChange={(event) => setRole(event.target.value as typeof role)}>
            {operatorRoles.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </SelectField>
          <Button type="submit" loading={create.isPending}>
            Create
          </Button>
        </form>
        <div className="mt-3">
          <ErrorNote error={create.error} />
        </div>
        {create.data && (
          <p role="status" className="mt-3 break-all rounded-lg bg-green-50 px-3 py-2 text-sm text-green-900">
            Send this one-time enrolment link to {create.data.operator.email} (valid 72 hours):{' '}
            <code data-testid="enrolment-url">{create.data.enrolment_url}</code>
          </p>
        )}
      </Card>
      {operators.isPending && <Loading />}
      <ErrorNote error={operators.error} />
      {operators.data && (
        <Table
          caption="Operators"
          columns={['E-mail', 'Role', 'State', 'Created']}
          rows={operators.data.map((operator) => ({
            key: operator.id,
            cells: [
              operator.email,
              operator.role,
              operator.locked_until && new Date(operator.locked_until) > new Date() ? (
                <Badge tone="red">locked</Badge>
              ) : operator.enrolled ? (
                <Badge tone="green">enrolled</Badge>
              ) : (
                <Badge tone="amber">invited</Badge>
              ),
              formatTime(operator.created_at),
            ],
          }))}
        />
      )}
    </Page>
  );
}
