import { useId, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowLeft, Download, Paperclip } from 'lucide-react';
import { TICKET_MESSAGE_MAX, type Ticket } from '@tipcard/shared/support/schemas';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { TextAreaField } from '../../components/ui/field.tsx';
import { LoadError } from '../../components/ui/list-state.tsx';
import { SkeletonRows } from '../../components/ui/skeleton.tsx';
import { ApiError, serverFieldErrors } from '../../lib/api-errors.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { formatBytes } from '../../lib/files.ts';
import { showSnackbar } from '../../lib/ui-store.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { useDownloadAttachment, useReply, useTicket } from './api/use-support.ts';
import { AttachmentPicker, type StagedFile } from './components/attachment-picker.tsx';
import { TicketStatusBadge } from './components/ticket-status.tsx';
import { useSendFiles } from './components/use-send-files.ts';

type Entry =
  | { kind: 'message'; at: string; author: 'user' | 'operator'; id: string; message: string }
  | { kind: 'attachment'; at: string; author: 'user' | 'operator'; id: string; name: string; mime: string; size: number };

/** Messages and attachments in one conversation, in the order they came (a message before files sent with it). */
function conversationOf(ticket: Ticket): Entry[] {
  const entries: Entry[] = [
    ...ticket.messages.map((m) => ({
      kind: 'message' as const,
      at: m.created_at,
      author: m.author,
      id: m.id,
      message: m.message,
    })),
    ...ticket.attachments.map((a) => ({
      kind: 'attachment' as const,
      at: a.created_at,
      author: a.author,
      id: a.id,
      name: a.name,
      mime: a.mime,
      size: a.size_bytes,
    })),
  ];
  return entries.sort((a, b) => a.at.localeCompare(b.at) || (a.kind === b.kind ? 0 : a.kind === 'message' ? -1 : 1));
}

function Conversation({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation('support');
  const download = useDownloadAttachment(ticket.id);
  return (
    <ol className="space-y-3" aria-label={t('ticket.conversation')} data-testid="conversation">
      {conversationOf(ticket).map((entry) => {
        const mine = entry.author === 'user';
        return (
          <li key={`${entry.kind}-${entry.id}`} className={cn('flex', mine ? 'justify-end' : 'justify-start')}>
            <div
              className={cn(
                'max-w-[85%] rounded-2xl px-4 py-3 shadow-sm ring-1',
                mine ? 'bg-primary-900 text-white ring-primary-900' : 'bg-white text-slate-900 ring-slate-200',
              )}
              data-author={entry.author}
            >
              <p className={cn('text-xs font-semibold', mine ? 'text-primary-100' : 'text-primary-800')}>
                {mine ? t('ticket.you') : t('ticket.operator')} ·{' '}
                <time dateTime={entry.at}>{formatDate(entry.at, 'dateTime', currentLocale())}</time>
              </p>
              {entry.kind === 'message' ? (
                <p className="mt-1 whitespace-pre-wrap break-words text-sm">{entry.message}</p>
              ) : (
                <button
                  type="button"
                  onClick={() => download.mutate({ id: entry.id, name: entry.name, mime: entry.mime })}
                  className={cn(
                    'mt-1 flex max-w-full items-center gap-2 rounded-lg text-left text-sm underline-offset-2 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400',
                  )}
                >
                  <Paperclip className="size-4 shrink-0" aria-hidden="true" />
                  <span className="min-w-0 truncate">{entry.name}</span>
                  <span className={cn('shrink-0 text-xs', mine ? 'text-primary-100' : 'text-slate-500')}>
                    {formatBytes(entry.size, currentLocale())}
                  </span>
                  <Download className="size-4 shrink-0" aria-hidden="true" />
                  <span className="sr-only">{t('ticket.download', { name: entry.name })}</span>
                </button>
              )}
            </div>
          </li>
        );
      })}
    </ol>
  );
}

interface ReplyInput {
  message: string;
  files: StagedFile[];
}

/** A reply is a message, files, or both; each part that went is cleared, what the server refused stays to fix. */
function ReplyForm({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation('support');
  const id = useId();
  const reply = useReply(ticket.id);
  const { send, progress, sending } = useSendFiles();
  const {
    register,
    control,
    handleSubmit,
    setValue,
    setError,
    formState: { errors },
  } = useForm<ReplyInput>({ defaultValues: { message: '', files: [] } });
  const [message, files] = useWatch({ control, name: ['message', 'files'] });
  const ready = message.trim().length > 0 || files.length > 0;
  const busy = reply.isPending || sending;
  const [sentReplies, setSentReplies] = useState(0);

  const submit = handleSubmit(async ({ message, files }) => {
    if (!ready || busy) return;
    if (message.trim()) {
      const sent = await reply.mutateAsync(message.trim()).then(
        () => true,
        (error: unknown) => {
          for (const [, text] of serverFieldErrors(error)) setError('message', { message: text });
          return false;
        },
      );
      if (!sent) return;
      setValue('message', '');
    }
    const unsent = files.length > 0 ? await send(ticket.id, files) : [];
    setValue('files', unsent);
    // A refused file keeps the API client's snackbar with its reason on screen.
    if (unsent.length > 0) return;
    showSnackbar(t('ticket.sent'), 'success');
    // A fresh picker: what it said about a file refused before sending belongs to the reply that went.
    setSentReplies((count) => count + 1);
  });

  return (
    <form
      onSubmit={(event) => void submit(event)}
      className="space-y-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200/70 sm:p-5"
      noValidate
    >
      <TextAreaField
        id={id}
        label={t('ticket.reply')}
        maxLength={TICKET_MESSAGE_MAX}
        disabled={busy}
        error={errors.message?.message}
        aria-describedby={errors.message ? `${id}-error` : `${id}-counter`}
        {...register('message')}
      />
      <p id={`${id}-counter`} className="text-right text-xs text-slate-500" aria-live="polite">
        {t('modal.counter', { length: message.length, count: TICKET_MESSAGE_MAX })}
      </p>
      <Controller
        control={control}
        name="files"
        render={({ field }) => (
          <AttachmentPicker key={sentReplies} files={field.value} onChange={field.onChange} progress={progress} disabled={busy} />
        )}
      />
      <div className="flex justify-end">
        <Button type="submit" loading={busy} aria-disabled={!ready} className={cn(!ready && 'cursor-not-allowed opacity-50')}>
          {t('ticket.send')}
        </Button>
      </div>
    </form>
  );
}

/** A ticket that is not there, or not this user's; any other failure may pass with another try. */
const isMissing = (error: Error) => error instanceof ApiError && (error.status === 404 || error.status === 403);

/** `/support/{ticketID}`: the conversation with support, its files, and the reply box. */
export default function TicketPage() {
  const { t } = useTranslation('support');
  const to = useLocalePath();
  const { ticketId = '' } = useParams();
  const ticket = useTicket(ticketId);
  useDocumentTitle(ticket.data?.title ?? t('title'));

  return (
    <div className="mx-auto max-w-3xl space-y-5">
      <Link
        to={to('/support')}
        className="inline-flex items-center gap-1.5 rounded-lg text-sm font-semibold text-primary-800 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        {t('ticket.back')}
      </Link>
      {ticket.isPending ? (
        <SkeletonRows label={t('ticket.loading')} rows={4} className="py-2" />
      ) : ticket.isError ? (
        isMissing(ticket.error) ? (
          <p className="rounded-2xl bg-white p-6 text-sm text-slate-700 shadow-sm ring-1 ring-slate-200/70" role="alert">
            {t('ticket.not_found')}
          </p>
        ) : (
          <LoadError onRetry={ticket.refetch} />
        )
      ) : (
        <>
          <div className="flex flex-wrap items-start justify-between gap-3">
            <h1 className="min-w-0 break-words text-2xl font-bold tracking-tight text-primary-950">{ticket.data.title}</h1>
            <TicketStatusBadge status={ticket.data.status} />
          </div>
          {ticket.data.status === 'waiting_for_user' ? (
            <p className="rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200">{t('ticket.waiting')}</p>
          ) : null}
          <Conversation ticket={ticket.data} />
          {ticket.data.status === 'closed' ? (
            <p className="rounded-xl bg-slate-100 px-4 py-3 text-sm text-slate-700">{t('ticket.closed')}</p>
          ) : (
            <ReplyForm ticket={ticket.data} />
          )}
        </>
      )}
    </div>
  );
}
