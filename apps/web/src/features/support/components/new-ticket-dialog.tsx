import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { TICKET_MESSAGE_MAX, TICKET_TITLE_MAX } from '@tipcard/shared/support/schemas';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { showSnackbar } from '../../../lib/ui-store.ts';
import { useLocalePath } from '../../../lib/use-locale-path.ts';
import { useCreateTicket } from '../api/use-support.ts';
import { AttachmentPicker, type StagedFile } from './attachment-picker.tsx';
import { useSendFiles } from './use-send-files.ts';

/**
 * The support ticket modal (spec 2, 5): a subject of at most 100 characters and a message cut to 255 with a counter;
 * both needed or nothing is sent, and the button looks inactive until then. Files go up once the ticket exists.
 */
export function NewTicketDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('support');
  const to = useLocalePath();
  const navigate = useNavigate();
  const formId = useId();
  const messageId = useId();
  const [title, setTitle] = useState('');
  const [message, setMessage] = useState('');
  const [files, setFiles] = useState<StagedFile[]>([]);
  const create = useCreateTicket();
  const { send, progress, sending } = useSendFiles();
  const ready = title.trim().length > 0 && message.trim().length > 0;
  const busy = create.isPending || sending;

  const close = () => {
    if (busy) return;
    setTitle('');
    setMessage('');
    setFiles([]);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready || busy) return;
    const { id } = await create.mutateAsync({ title: title.trim(), message: message.trim() });
    // A file the server refuses is named by the API client's snackbar; the ticket page takes it again once fixed.
    if (files.length > 0) await send(id, files);
    showSnackbar(t('modal.created'), 'success');
    setTitle('');
    setMessage('');
    setFiles([]);
    onClose();
    await navigate(to(`/support/${id}`));
  };

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
      <form id={formId} onSubmit={(event) => void submit(event).catch(() => undefined)} className="space-y-4" noValidate>
        <TextField
          label={t('modal.subject')}
          hint={t('modal.subject_hint', { count: TICKET_TITLE_MAX })}
          value={title}
          maxLength={TICKET_TITLE_MAX}
          onChange={(event) => setTitle(event.target.value.slice(0, TICKET_TITLE_MAX))}
          required
          disabled={busy}
        />
        <div className="space-y-1.5">
          <label htmlFor={messageId} className="block text-sm font-medium text-slate-800">
            {t('modal.message')}
          </label>
          <textarea
            id={messageId}
            value={message}
            onChange={(event) => setMessage(event.target.value.slice(0, TICKET_MESSAGE_MAX))}
            maxLength={TICKET_MESSAGE_MAX}
            required
            disabled={busy}
            aria-describedby={`${messageId}-counter`}
            className="block min-h-28 w-full rounded-xl border border-slate-300 bg-white px-3.5 py-2.5 text-base text-slate-900 shadow-xs hover:border-slate-400 focus:border-primary-600 focus:outline-none focus:ring-2 focus:ring-primary-100 disabled:bg-slate-50 sm:text-sm"
          />
          <p id={`${messageId}-counter`} className="text-right text-xs text-slate-500" aria-live="polite">
            {t('modal.counter', { length: message.length, count: TICKET_MESSAGE_MAX })}
          </p>
        </div>
        <AttachmentPicker files={files} onChange={setFiles} progress={progress} disabled={busy} />
        {!ready ? (
          <p id={`${formId}-needed`} className="text-sm text-slate-600">
            {t('modal.needed')}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
