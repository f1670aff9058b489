import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createdOperator,
  createOperatorBody,
  operatorRoles,
  operatorSchema,
  type OperatorRole,
  type OperatorView,
} from '@tipcard/shared/ops/schemas';
import { UsersRound } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '../../components/ui/button-base.tsx';
import { SelectField, TextField } from '../../components/ui/field.tsx';
import { ListState } from '../../components/ui/list-state.tsx';
import { showServerErrors } from '../forms.ts';
import { formatTime, opsGet, opsPatch, opsPost, session } from '../ops-api.ts';
import { Badge, BESIDE_FIELDS, ConfirmDialog, ErrorNote, loadErrorText, Page, Table, TitledPanel } from '../ui.tsx';

type NewOperator = z.output<typeof createOperatorBody>;
type Change = { kind: 'role'; role: OperatorRole } | { kind: 'disable' } | { kind: 'enable' } | { kind: 'reset' };

/** The one-time link of an invitation or a reset: e-mailed to the operator, shown here in case the e-mail is slow. */
function EnrolmentLinkNote({ answer, sent }: { answer: z.output<typeof createdOperator>; sent: 'invitation' | 'reset' }) {
  return (
    <p role="status" className="mt-3 break-all rounded-lg bg-green-50 px-3 py-2 text-sm text-green-900">
      {sent === 'invitation' ? 'Invitation' : 'A new enrolment link'} e-mailed to {answer.operator.email}. The one-time link
      (valid 72 hours), if they ask for it: <code data-testid="enrolment-url">{answer.enrolment_url}</code>
    </p>
  );
}

function stateOf(operator: OperatorView) {
  if (operator.disabled) return <Badge tone="slate">disabled</Badge>;
  if (operator.locked_until && new Date(operator.locked_until) > new Date()) return <Badge tone="red">locked</Badge>;
  return operator.enrolled ? <Badge tone="green">enrolled</Badge> : <Badge tone="amber">invited</Badge>;
}

const CHANGE_TEXT: Record<Change['kind'], { title: string; confirm: string; tone: 'primary' | 'danger' }> = {
  role: { title: 'Change the role', confirm: 'Change role', tone: 'primary' },
  disable: { title: 'Disable the operator', confirm: 'Disable', tone: 'danger' },
  enable: { title: 'Enable the operator', confirm: 'Enable', tone: 'primary' },
  reset: { title: 'Reset password and authenticator', confirm: 'Reset', tone: 'danger' },
};

/**
 * An admin's changes to one operator, each confirmed first: every one of them signs the operator out (a reset also
 * makes them enrol again from an e-mailed link). The API keeps one enabled admin and says so if asked otherwise.
 */
function OperatorActions({ operator }: { operator: OperatorView }) {
  const queryClient = useQueryClient();
  const [change, setChange] = useState<Change | null>(null);
  const self = session.operator()?.id === operator.id;
  const apply = useMutation({
    mutationFn: async (next: Change) =>
      next.kind === 'reset'
        ? opsPost(createdOperator, `/operators/${operator.id}/reset-sign-in`)
        : {
            operator: await opsPatch(
              operatorSchema,
              `/operators/${operator.id}`,
              next.kind === 'role' ? { role: next.role } : { disabled: next.kind === 'disable' },
            ),
          },
    onSuccess: () => {
      setChange(null);
      void queryClient.invalidateQueries({ queryKey: ['ops', 'operators'] });
    },
  });
  const close = () => {
    apply.reset();
    setChange(null);
  };
  const text = change && CHANGE_TEXT[change.kind];
  const whom = self ? 'you' : operator.email;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label className="sr-only" htmlFor={`role-${operator.id}`}>
        Role of {operator.email}
      </label>
      <select
        id={`role-${operator.id}`}
        value={operator.role}
        onChange={(event) => setChange({ kind: 'role', role: event.target.value as OperatorRole })}
        className="rounded-lg border border-slate-300 bg-white px-2 py-1 text-sm"
      >
        {ROLE_OPTIONS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <Button size="sm" variant="secondary" onClick={() => setChange({ kind: operator.disabled ? 'enable' : 'disable' })}>
        {operator.disabled ? 'Enable…' : 'Disable…'}
      </Button>
      <Button size="sm" variant="secondary" onClick={() => setChange({ kind: 'reset' })}>
        Reset sign-in…
      </Button>
      {apply.data && 'enrolment_url' in apply.data && <EnrolmentLinkNote answer={apply.data} sent="reset" />}
      <ConfirmDialog
        open={change !== null}
        title={text?.title ?? ''}
        confirmLabel={text?.confirm ?? ''}
        tone={text?.tone}
        pending={apply.isPending}
        error={apply.error}
        onCancel={close}
        onConfirm={() => change && apply.mutate(change)}
      >
        <p>
          {change?.kind === 'role' && `${operator.email} becomes ${change.role} (now ${operator.role}).`}
          {change?.kind === 'disable' && `${operator.email} can no longer sign in until an admin enables them again.`}
          {change?.kind === 'enable' && `${operator.email} can sign in again with their password and authenticator.`}
          {change?.kind === 'reset' &&
            `The password, authenticator and passkeys of ${operator.email} stop working. A new one-time enrolment link is e-mailed to them.`}
        </p>
        <p>This signs {whom} out of every session.</p>
      </ConfirmDialog>
    </div>
  );
}
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
      {create.data && <EnrolmentLinkNote answer={create.data} sent="invitation" />}
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
            columns={['E-mail', 'State', 'Created', 'Role and access']}
            rows={rows.map((operator) => ({
              key: operator.id,
              cells: [
                operator.email,
                stateOf(operator),
                formatTime(operator.created_at),
                <OperatorActions operator={operator} />,
              ],
            }))}
          />
        )}
      </ListState>
    </Page>
  );
}
