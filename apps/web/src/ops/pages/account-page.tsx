import { zodResolver } from '@hookform/resolvers/zod';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PASSKEY_NAME_MAX, passkeySchema } from '@tipcard/shared/ops/schemas';
import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '../../components/ui/button-base.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { ListState } from '../../components/ui/list-state.tsx';
import { formatTime, opsDelete, opsGet, session } from '../ops-api.ts';
import { addPasskey, passkeyErrorText } from '../passkeys.ts';
import { BESIDE_FIELDS, ConfirmDialog, ErrorNote, loadErrorText, Page, Table, TitledPanel } from '../ui.tsx';

type Passkey = z.output<typeof passkeySchema>;
const nameForm = z.object({ name: z.string().trim().min(1, 'Name the passkey').max(PASSKEY_NAME_MAX) });
const PASSKEYS = ['ops', 'passkeys'];

/** A new passkey: the operator names it, then the browser's prompt makes it (Touch ID, Windows Hello, a security key). */
function AddPasskeyForm() {
  const queryClient = useQueryClient();
  const supported = browserSupportsWebAuthn();
  const form = useForm<z.input<typeof nameForm>, unknown, z.output<typeof nameForm>>({
    resolver: zodResolver(nameForm),
    defaultValues: { name: '' },
  });
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = form;
  const add = useMutation({
    mutationFn: ({ name }: z.output<typeof nameForm>) => addPasskey(name),
    onSuccess: () => {
      reset();
      void queryClient.invalidateQueries({ queryKey: PASSKEYS });
    },
  });
  return (
    <TitledPanel title="Add a passkey">
      <p className="mb-3 max-w-2xl text-sm text-slate-700">
        A passkey signs you in on its own, with your fingerprint, face or device PIN instead of the password and code. Name it
        after the device that keeps it.
      </p>
      {supported ? (
        <form
          onSubmit={handleSubmit((body) => add.mutate(body))}
          className="grid max-w-xl grid-cols-[1fr_auto] items-start gap-3"
          noValidate
        >
          <TextField
            label="Name"
            placeholder="MacBook, YubiKey…"
            maxLength={PASSKEY_NAME_MAX}
            error={errors.name?.message}
            {...register('name')}
          />
          <Button type="submit" className={BESIDE_FIELDS.md} loading={add.isPending}>
            Add a passkey
          </Button>
        </form>
      ) : (
        <p className="text-sm text-slate-700">This browser cannot make passkeys. Open this page in a current browser.</p>
      )}
      <div className="mt-3 empty:hidden">
        {add.error && <ErrorNote error={passkeyErrorText(add.error)} />}
        {add.data && !add.isPending && (
          <p role="status" className="rounded-lg bg-green-50 px-3 py-2 text-sm text-green-900">
            Passkey “{add.data.name}” added. You can now sign in with it.
          </p>
        )}
      </div>
    </TitledPanel>
  );
}

function RemovePasskey({ passkey }: { passkey: Passkey }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const remove = useMutation({
    mutationFn: () => opsDelete(`/passkeys/${passkey.id}`),
    onSuccess: () => {
      setOpen(false);
      void queryClient.invalidateQueries({ queryKey: PASSKEYS });
    },
  });
  const close = () => {
    remove.reset();
    setOpen(false);
  };
  return (
    <>
      <Button size="sm" variant="secondary" onClick={() => setOpen(true)} aria-label={`Remove ${passkey.name}…`}>
        Remove…
      </Button>
      <ConfirmDialog
        open={open}
        title="Remove the passkey"
        confirmLabel="Remove"
        tone="danger"
        pending={remove.isPending}
        error={remove.error}
        onCancel={close}
        onConfirm={() => remove.mutate()}
      >
        <p>“{passkey.name}” can no longer sign you in.</p>
        <p>This signs you out of your other sessions; this one stays.</p>
      </ConfirmDialog>
    </>
  );
}

/** The signed-in operator's own account: who they are, and their passkeys. */
export default function AccountPage() {
  const operator = session.operator();
  const passkeys = useQuery({ queryKey: PASSKEYS, queryFn: () => opsGet(z.array(passkeySchema), '/passkeys') });
  return (
    <Page title="Your account">
      <p className="text-sm text-slate-700">
        Signed in as <strong>{operator?.email}</strong> ({operator?.role}). Your password and authenticator app are reset by an
        admin.
      </p>
      <AddPasskeyForm />
      <section aria-labelledby="passkeys-heading" className="space-y-3">
        <h2 id="passkeys-heading" className="text-base font-semibold text-primary-950">
          Your passkeys
        </h2>
        <ListState
          query={passkeys}
          loadingLabel="Loading passkeys…"
          errorText={loadErrorText(passkeys.error)}
          empty={{
            icon: <KeyRound className="size-7" />,
            title: 'No passkey yet.',
            text: 'You sign in with your password and the code of your authenticator app.',
          }}
        >
          {(rows) => (
            <Table
              caption="Your passkeys"
              columns={['Name', 'Added', 'Last used', '']}
              rows={rows.map((passkey) => ({
                key: passkey.id,
                cells: [
                  passkey.name,
                  formatTime(passkey.created_at),
                  passkey.last_used_at ? formatTime(passkey.last_used_at) : 'Never',
                  <RemovePasskey passkey={passkey} />,
                ],
              }))}
            />
          )}
        </ListState>
      </section>
    </Page>
  );
}
