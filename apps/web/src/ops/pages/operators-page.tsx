import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createdOperator, createOperatorBody, operatorRoles, operatorSchema } from '@tipcard/shared/ops/schemas';
import { UsersRound } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '../../components/ui/button-base.tsx';
import { SelectField, TextField } from '../../components/ui/field.tsx';
import { ListState } from '../../components/ui/list-state.tsx';
import { showServerErrors } from '../forms.ts';
import { formatTime, opsGet, opsPost } from '../ops-api.ts';
import { Badge, BESIDE_FIELDS, ErrorNote, loadErrorText, Page, Table, TitledPanel } from '../ui.tsx';

type NewOperator = z.output<typeof createOperatorBody>;
const ROLE_OPTIONS = operatorRoles.map((role) => ({ value: role, label: role }));

function CreateOperatorForm() {
  const queryClient = useQueryClient();
  const form = useForm<z.input<typeof createOperatorBody>, unknown, NewOperator>({
    resolver: zodResolver(createOperatorBody),
    defaultValues: { email: '', role: 'support' },
  });
  const {
    register,
    handleSubmit,
    resetField,
    formState: { errors },
  } = form;
  const create = useMutation({
    mutationFn: (body: NewOperator) => opsPost(createdOperator, '/operators', body),
    onSuccess: () => {
      resetField('email');
      void queryClient.invalidateQueries({ queryKey: ['ops', 'operators'] });
    },
    onError: (error) => showServerErrors(error, form),
  });
  return (
    <TitledPanel title="Add an operator">
      <form
        onSubmit={handleSubmit((body) => create.mutate(body))}
        className="grid max-w-3xl grid-cols-[2fr_1fr_auto] items-start gap-3"
        noValidate
      >
        <TextField label="E-mail" type="email" error={errors.email?.message} {...register('email')} />
        <SelectField label="Role" options={ROLE_OPTIONS} error={errors.role?.message} {...register('role')} />
        <Button type="submit" className={BESIDE_FIELDS.md} loading={create.isPending}>
          Create
        </Button>
      </form>
      <div className="mt-3 empty:hidden">
        <ErrorNote error={errors.root?.server?.message} />
      </div>
      {create.data && (
        <p role="status" className="mt-3 break-all rounded-lg bg-green-50 px-3 py-2 text-sm text-green-900">
          Send this one-time enrolment link to {create.data.operator.email} (valid 72 hours):{' '}
          <code data-testid="enrolment-url">{create.data.enrolment_url}</code>
        </p>
      )}
    </TitledPanel>
  );
}

export default function OperatorsPage() {
  const operators = useQuery({
    queryKey: ['ops', 'operators'],
    queryFn: () => opsGet(z.array(operatorSchema), '/operators'),
  });
  return (
    <Page title="Operators">
      <CreateOperatorForm />
      <ListState
        query={operators}
        loadingLabel="Loading operators…"
        errorText={loadErrorText(operators.error)}
        empty={{ icon: <UsersRound className="size-7" />, title: 'No operator yet.' }}
      >
        {(rows) => (
          <Table
            caption="Operators"
            columns={['E-mail', 'Role', 'State', 'Created']}
            rows={rows.map((operator) => ({
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
      </ListState>
    </Page>
  );
}
