import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  OPS_REPLY_MAX_ATTACHMENTS,
  opsTicketDetail,
  opsTicketReplyBody,
  type OpsTicketDetail,
} from '@tipcard/shared/ops/schemas';
import { ATTACHMENT_EXTENSIONS, ATTACHMENT_MAX_BYTES } from '@tipcard/shared/support/schemas';
import { Paperclip } from 'lucide-react';
import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import { z } from 'zod';
import { Button } from '../../components/ui/button-base.tsx';
import { cn } from '../../components/ui/cn.ts';
import { TextAreaField } from '../../components/ui/field.tsx';
import { FileDrop } from '../../components/ui/file-drop.tsx';
import { saveBlob } from '../../lib/download-file.ts';
import { formatBytes, readAsBase64 } from '../../lib/files.ts';
import { formatTime, opsBlob, opsGet, opsPost } from '../ops-api.ts';
import { showServerErrors } from '../forms.ts';
import { ErrorNote, Page, RecordState, TitledPanel } from '../ui.tsx';
import { TicketStatusBadge } from './ticket-status.tsx';

type Attachment = OpsTicketDetail['attachments'][number];

/** An attachment, fetched with the operator's token and saved as a download (never opened as a page). */
function AttachmentLink({ ticketId, attachment }: { ticketId: string; attachment: Attachment }) {
  const download = useMutation({
    mutationFn: async () => saveBlob(await opsBlob(`/tickets/${ticketId}/attachments/${attachment.id}`), attachment.name),
  });
  return (
    <li className="flex flex-wrap items-center gap-3 text-sm">
      <Button size="sm" variant="secondary" onClick={() => download.mutate()} loading={download.isPending}>
        Download {attachment.name}
      </Button>
      <span className="text-slate-600">
        {attachment.author === 'operator' ? 'from support' : 'from the user'} · {formatBytes(attachment.size_bytes, 'en-GB')} ·{' '}
        {formatTime(attachment.created_at)}
      </span>
      <ErrorNote error={download.error} />
    </li>
  );
}

/** A reply as typed: the API's message rule, and the files as picked (sent as base64 once they pass). */
const replyForm = z.object({
  message: opsTicketReplyBody.shape.message,
  attachments: z
    .array(z.instanceof(File))
    .max(OPS_REPLY_MAX_ATTACHMENTS, `At most ${OPS_REPLY_MAX_ATTACHMENTS} files with one reply.`)
    .refine((files) => files.every((file) => file.size <= ATTACHMENT_MAX_BYTES), 'Each file may be at most 10 MB.'),
});
type Reply = z.output<typeof replyForm>;

function ReplyForm({ ticket }: { ticket: OpsTicketDetail }) {
  const queryClient = useQueryClient();
  const filesLabelId = useId();
  const filesErrorId = useId();
  const form = useForm<z.input<typeof replyForm>, unknown, Reply>({
    resolver: zodResolver(replyForm),
    defaultValues: { message: '', attachments: [] },
  });
  const {
    register,
    handleSubmit,
    setValue,
    control,
    reset,
    formState: { errors },
  } = form;
  const files = useWatch({ control, name: 'attachments' });
  const reply = useMutation({
    mutationFn: async ({ message, attachments }: Reply) =>
      opsPost(opsTicketDetail, `/tickets/${ticket.id}/reply`, {
        message,
        attachments: await Promise.all(attachments.map(async (file) => ({ name: file.name, content: await readAsBase64(file) }))),
      }),
    onSuccess: (updated) => {
      reset();
      queryClient.setQueryData(['ops', 'ticket', ticket.id], updated);
      void queryClient.invalidateQueries({ queryKey: ['ops', 'tickets'] });
    },
    onError: (error) => showServerErrors(error, form),
  });
  return (
    <form onSubmit={handleSubmit((body) => reply.mutate(body))} className="space-y-3" noValidate>
      <TextAreaField
        label={
          ticket.contact
            ? `Your answer (e-mailed to ${ticket.contact.email} in their language; the ticket then waits for them)`
            : 'Your answer (the user is told by SMS; the ticket then waits for them)'
        }
        rows={5}
        maxLength={5000}
        error={errors.message?.message}
        {...register('message')}
      />
      {/* A visitor's answer is an e-mail of text: no files leave the back office with it. */}
      {ticket.contact ? null : (
        <div className="space-y-1.5">
          <p id={filesLabelId} className="text-sm font-medium text-slate-800">
            Files (PDF, JPEG, PNG or .edoc; up to {OPS_REPLY_MAX_ATTACHMENTS}, 10 MB each)
          </p>
          <FileDrop
            accept={ATTACHMENT_EXTENSIONS.join(',')}
            multiple
            labelledBy={filesLabelId}
            invalid={Boolean(errors.attachments)}
            describedBy={errors.attachments ? filesErrorId : undefined}
            onFiles={(picked) => setValue('attachments', picked, { shouldValidate: true })}
          >
            <Paperclip className="size-5 shrink-0 text-slate-500" aria-hidden="true" />
            <span className="text-sm text-slate-700">
              {files.length > 0 ? files.map((file) => file.name).join(', ') : 'Choose files or drop them here'}
            </span>
          </FileDrop>
          {errors.attachments && (
            <p id={filesErrorId} className="text-sm text-red-700" role="alert">
              {errors.attachments.message}
            </p>
          )}
        </div>
      )}
      <Button type="submit" loading={reply.isPending}>
        Send answer
      </Button>
      <ErrorNote error={errors.root?.server?.message} />
    </form>
  );
}

function TicketDetail({ ticket }: { ticket: OpsTicketDetail }) {
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (action: 'close' | 'reopen') => opsPost(opsTicketDetail, `/tickets/${ticket.id}/${action}`),
    onSuccess: (updated) => {
      queryClient.setQueryData(['ops', 'ticket', ticket.id], updated);
      void queryClient.invalidateQueries({ queryKey: ['ops', 'tickets'] });
    },
  });
  const closed = ticket.status === 'closed';
  return (
    <Page
      title={ticket.title}
      actions={
        <div className="flex items-center gap-3">
          <TicketStatusBadge status={ticket.status} />
          <Button
            variant={closed ? 'secondary' : 'danger'}
            size="sm"
            onClick={() => change.mutate(closed ? 'reopen' : 'close')}
            loading={change.isPending}
          >
            {closed ? 'Reopen' : 'Close ticket'}
          </Button>
        </div>
      }
    >
      <ErrorNote error={change.error} />
      <p className="text-sm text-slate-700">
        From{' '}
        {ticket.user ? (
          <Link to={`/users/${ticket.user.id}`} className="font-medium text-primary-800 underline">
            {ticket.user.phone}
          </Link>
        ) : (
          <>
            {ticket.contact?.name} &lt;{ticket.contact?.email}&gt;, by the contact page (no account; the reply is e-mailed)
          </>
        )}{' '}
        · opened {formatTime(ticket.created_at)} · last activity {formatTime(ticket.updated_at)}
      </p>
      <div className="grid gap-6 xl:grid-cols-[3fr_2fr]">
        <TitledPanel title="Conversation">
          <ol className="space-y-3">
            {ticket.messages.map((message) => (
              <li
                key={message.id}
                className={cn(
                  'max-w-[85%] rounded-xl px-4 py-3 text-sm',
                  message.author === 'operator' ? 'ml-auto bg-primary-50 text-primary-950' : 'bg-slate-100 text-slate-900',
                )}
              >
                <p className="mb-1 text-xs font-semibold text-slate-600">
                  {message.author === 'operator' ? 'Support' : ticket.contact ? 'Visitor' : 'User'} ·{' '}
                  {formatTime(message.created_at)}
                </p>
                <p className="whitespace-pre-wrap break-words">{message.message}</p>
              </li>
            ))}
          </ol>
        </TitledPanel>
        <div className="space-y-6">
          <TitledPanel title="Attachments">
            {ticket.attachments.length === 0 ? (
              <p className="text-sm text-slate-600">No files.</p>
            ) : (
              <ul className="space-y-2">
                {ticket.attachments.map((attachment) => (
                  <AttachmentLink key={attachment.id} ticketId={ticket.id} attachment={attachment} />
                ))}
              </ul>
            )}
          </TitledPanel>
          <TitledPanel title="Answer">
            <ReplyForm ticket={ticket} />
          </TitledPanel>
        </div>
      </div>
    </Page>
  );
}

export default function TicketPage() {
  const id = useParams().id ?? '';
  const detail = useQuery({ queryKey: ['ops', 'ticket', id], queryFn: () => opsGet(opsTicketDetail, `/tickets/${id}`) });
  return (
    <RecordState query={detail} loadingLabel="Loading the ticket…">
      {(ticket) => <TicketDetail ticket={ticket} />}
    </RecordState>
  );
}
