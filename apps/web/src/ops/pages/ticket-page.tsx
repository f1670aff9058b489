import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { OPS_REPLY_MAX_ATTACHMENTS, opsTicketDetail, type OpsTicketDetail } from '@tipcard/shared/ops/schemas';
import { ATTACHMENT_EXTENSIONS, ATTACHMENT_MAX_BYTES } from '@tipcard/shared/support/schemas';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { Button } from '../../components/ui/button-base.tsx';
import { cn } from '../../components/ui/cn.ts';
import { saveBlob } from '../../lib/download-file.ts';
import { formatBytes, readAsBase64 } from '../../lib/files.ts';
import { formatTime, opsBlob, opsGet, opsPost } from '../ops-api.ts';
import { Card, ErrorNote, Loading, Page } from '../ui.tsx';
import { TicketStatusBadge } from './ticket-status.tsx';

type Attachment = OpsTicketDetail['attachments'][number];

/** An attachment, fetched with the operator's token and saved as a download (never opened as a page). */
function AttachmentLink({ ticketId, attachment }: { ticketId: string; attachment: Attachment }) {
  const [error, setError] = useState<unknown>(null);
  const download = async () => {
    setError(null);
    try {
      saveBlob(await opsBlob(`/tickets/${ticketId}/attachments/${attachment.id}`), attachment.name);
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <li className="flex flex-wrap items-center gap-3 text-sm">
      <Button size="sm" variant="secondary" onClick={() => void download()}>
        Download {attachment.name}
      </Button>
      <span className="text-slate-600">
        {attachment.author === 'operator' ? 'from support' : 'from the user'} · {formatBytes(attachment.size_bytes, 'en-GB')} ·{' '}
        {formatTime(attachment.created_at)}
      </span>
      <ErrorNote error={error} />
    </li>
  );
}

function ReplyForm({ ticket }: { ticket: OpsTicketDetail }) {
  const queryClient = useQueryClient();
  const messageId = useId();
  const filesId = useId();
  const [message, setMessage] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [fileError, setFileError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const reply = useMutation({
    mutationFn: async () => {
      const attachments = await Promise.all(files.map(async (file) => ({ name: file.name, content: await readAsBase64(file) })));
      return opsPost(opsTicketDetail, `/tickets/${ticket.id}/reply`, { message, attachments });
    },
    onSuccess: (updated) => {
      setMessage('');
      setFiles([]);
      if (input.current) input.current.value = '';
      queryClient.setQueryData(['ops', 'ticket', ticket.id], updated);
      void queryClient.invalidateQueries({ queryKey: ['ops', 'tickets'] });
    },
  });
  const pick = (list: FileList | null) => {
    const picked = [...(list ?? [])];
    setFileError(
      picked.length > OPS_REPLY_MAX_ATTACHMENTS
        ? `At most ${OPS_REPLY_MAX_ATTACHMENTS} files with one reply.`
        : picked.some((file) => file.size > ATTACHMENT_MAX_BYTES)
          ? 'Each file may be at most 10 MB.'
          : null,
    );
    setFiles(picked);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!fileError) reply.mutate();
  };
  return (
    <form onSubmit={submit} className="space-y-3">
      <div className="flex flex-col gap-1">
        <label htmlFor={messageId} className="text-sm font-medium text-slate-700">
          Your answer (the user is told by SMS; the ticket then waits for them)
        </label>
        <textarea
          id={messageId}
          name="message"
          rows={5}
          maxLength={5000}
          required
          value={message}
          onChange={(event) => setMessage(event.target.value)}
          className="rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus:border-primary-600 focus:outline-none focus:ring-2 focus:ring-primary-200"
        />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={filesId} className="text-sm font-medium text-slate-700">
          Files (PDF, JPEG, PNG or .edoc; up to {OPS_REPLY_MAX_ATTACHMENTS}, 10 MB each)
        </label>
        <input
          ref={input}
          id={filesId}
          name="attachments"
          type="file"
          multiple
          accept={ATTACHMENT_EXTENSIONS.join(',')}
          aria-invalid={fileError ? true : undefined}
          aria-describedby={fileError ? `${filesId}-error` : undefined}
          onChange={(event) => pick(event.target.files)}
          className="text-sm text-slate-800 file:mr-3 file:rounded-lg file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium"
        />
        {fileError && (
          <p id={`${filesId}-error`} className="text-sm text-red-700">
            {fileError}
          </p>
        )}
      </div>
      <Button type="submit" loading={reply.isPending} disabled={message.trim() === '' || fileError !== null}>
        Send answer
      </Button>
      <ErrorNote error={reply.error} />
    </form>
  );
}

export default function TicketPage() {
  const id = useParams().id ?? '';
  const queryClient = useQueryClient();
  const detail = useQuery({ queryKey: ['ops', 'ticket', id], queryFn: () => opsGet(opsTicketDetail, `/tickets/${id}`) });
  const change = useMutation({
    mutationFn: (action: 'close' | 'reopen') => opsPost(opsTicketDetail, `/tickets/${id}/${action}`),
    onSuccess: (updated) => {
      queryClient.setQueryData(['ops', 'ticket', id], updated);
      void queryClient.invalidateQueries({ queryKey: ['ops', 'tickets'] });
    },
  });
  if (detail.isPending) return <Loading />;
  if (detail.error) return <ErrorNote error={detail.error} />;
  const ticket = detail.data;
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
        <Link to={`/users/${ticket.user.id}`} className="font-medium text-primary-800 underline">
          {ticket.user.phone}
        </Link>{' '}
        · opened {formatTime(ticket.created_at)} · last activity {formatTime(ticket.updated_at)}
      </p>
      <div className="grid gap-6 xl:grid-cols-[3fr_2fr]">
        <Card title="Conversation">
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
                  {message.author === 'operator' ? 'Support' : 'User'} · {formatTime(message.created_at)}
                </p>
                <p className="whitespace-pre-wrap break-words">{message.message}</p>
              </li>
            ))}
          </ol>
        </Card>
        <div className="space-y-6">
          <Card title="Attachments">
            {ticket.attachments.length === 0 ? (
              <p className="text-sm text-slate-600">No files.</p>
            ) : (
              <ul className="space-y-2">
                {ticket.attachments.map((attachment) => (
                  <AttachmentLink key={attachment.id} ticketId={ticket.id} attachment={attachment} />
                ))}
              </ul>
            )}
          </Card>
          <Card title="Answer">
            <ReplyForm ticket={ticket} />
          </Card>
        </div>
      </div>
    </Page>
  );
}
