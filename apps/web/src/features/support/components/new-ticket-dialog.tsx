import { useId } from 'react';
import { Controller, useForm, useWatch, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { TICKET_MESSAGE_MAX, TICKET_TITLE_MAX, createTicketBody, ticketMessageBody } from '@tipcard/shared/support/schemas';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextAreaField, TextField } from '../../../components/ui/field.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { serverFieldErrors } from '../../../lib/api-errors.ts';
import { translateValidation } from '../../../lib/i18n.ts';
import { showSnackbar } from '../../../lib/ui-store.ts';
import { useLocalePath } from '../../../lib/use-locale-path.ts';
import { useCreateTicket } from '../api/use-support.ts';
import { AttachmentPicker, type StagedFile } from './attachment-picker.tsx';
import { useSendFiles } from './use-send-files.ts';

/** The modal's form: the ticket body with its first message needed, and the files that follow it. */
const newTicketForm = createTicketBody.extend({
  message: ticketMessageBody.shape.message,
  files: z.array(z.custom<StagedFile>()),
});
type NewTicketInput = z.input<typeof newTicketForm>;
type NewTicketOutput = z.output<typeof newTicketForm>;
const EMPTY: NewTicketInput = { title: '', message: '', files: [] };

/**
 * The support ticket modal (spec 2, 5): a subject of at most 100 characters and a message cut to 255 with a counter;
 * both needed or nothing is sent, and the button looks inactive until then. Files go up once the ticket exists.
 */
export function NewTicketDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('support');
  const to = useLocalePath();
  const navigate = useNavigate();
  const formId = useId();
  const create = useCreateTicket();
  const { send, progress, sending } = useSendFiles();
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<NewTicketInput, unknown, NewTicketOutput>({ resolver: zodResolver(newTicketForm), defaultValues: EMPTY });
  const [title, message] = useWatch({ control, name: ['title', 'message'] });
  const ready = title.trim().length > 0 && message.trim().length > 0;
  const busy = create.isPending || sending;

  const close = () => {
    if (busy) return;
    reset(EMPTY);
    onClose();
  };

  const submit = handleSubmit(async ({ title, message, files }) => {
    if (busy) return;
    const created = await create.mutateAsync({ title, message }).catch((error: unknown) => {
      for (const [field, text] of serverFieldErrors(error)) setError(field as Path<NewTicketInput>, { message: text });
      return null;
    });
    if (!created) return;
    // A file the server refuses is named by the API client's snackbar, which stays up; the ticket page takes it again.
    const unsent = files.length > 0 ? await send(created.id, files) : [];
    if (unsent.length === 0) showSnackbar(t('modal.created'), 'success');
    reset(EMPTY);
    onClose();
    await navigate(to(`/support/${created.id}`));
  });

  return (
    <Dialog
      open={open}
      onClose={close}
      title={t('modal.title')}
      className="max-w-lg"
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={busy}>
            {t('modal.cancel')}
          </Button>
          <Button
            type="submit"
            form={formId}
            loading={busy}
            aria-disabled={!ready}
            aria-describedby={ready ? undefined : `${formId}-needed`}
            className={cn(!ready && 'cursor-not-allowed opacity-50')}
          >
            {t('modal.send')}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={(event) => void submit(event)} className="space-y-4" noValidate>
        <TextField
          label={t('modal.subject')}
          hint={t('modal.subject_hint', { count: TICKET_TITLE_MAX })}
          maxLength={TICKET_TITLE_MAX}
          required
          disabled={busy}
          error={translateValidation(errors.title?.message)}
          {...register('title')}
        />
        <div>
          <TextAreaField
            id={`${formId}-message`}
            label={t('modal.message')}
            aria-describedby={errors.message ? `${formId}-message-error` : `${formId}-counter`}
            maxLength={TICKET_MESSAGE_MAX}
            required
            disabled={busy}
            error={translateValidation(errors.message?.message)}
            {...register('message')}
          />
          <p id={`${formId}-counter`} className="mt-1 text-right text-xs text-slate-500" aria-live="polite">
            {t('modal.counter', { length: message.length, count: TICKET_MESSAGE_MAX })}
          </p>
        </div>
        <Controller
          control={control}
          name="files"
          render={({ field }) => (
            <AttachmentPicker files={field.value} onChange={field.onChange} progress={progress} disabled={busy} />
          )}
        />
        {!ready ? (
          <p id={`${formId}-needed`} className="text-sm text-slate-600">
            {t('modal.needed')}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
