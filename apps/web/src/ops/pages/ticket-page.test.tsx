import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Answer, apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { ticketDetail, TICKET_ID, USER_ID } from '../test-data.ts';
import { currentPath, findHeading, renderOps } from '../test-render.tsx';

const TICKET = `GET /ops/tickets/${TICKET_ID}`;
const REPLY = `POST /ops/tickets/${TICKET_ID}/reply`;
const ANSWER_LABEL = /Your answer/;

const answered = ticketDetail({
  status: 'waiting_for_user',
  messages: [
    ...ticketDetail().messages,
    {
      id: 'b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e',
      author: 'operator',
      message: 'It was sent again today.',
      created_at: '2026-03-03T10:00:00Z',
    },
  ],
  attachments: [
    {
      id: 'c3d4e5f6-a7b8-4c9d-8e1f-2a3b4c5d6e7f',
      author: 'operator',
      name: 'receipt.png',
      mime: 'image/png',
      size_bytes: 2_048,
      created_at: '2026-03-03T10:00:00Z',
    },
  ],
});

const png = (name = 'receipt.png', size?: number) => {
  const file = new File(['png-bytes'], name, { type: 'image/png' });
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size });
  return file;
};

describe('a support ticket', () => {
  it('says it is loading the ticket', async () => {
    fakeApi({ [TICKET]: pending });
    renderOps(`/tickets/${TICKET_ID}`, { role: 'support' });
    expect(await screen.findByRole('status', { name: 'Loading the ticket…' })).toBeInTheDocument();
  });

  it('says why a ticket cannot be shown, and offers to try again', async () => {
    fakeApi({ [TICKET]: apiError(404, 'not_found', 'No such ticket.') });
    renderOps(`/tickets/${TICKET_ID}`, { role: 'support' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('No such ticket.');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('shows the conversation, who wrote it and the user it is from', async () => {
    // The link opens the user's screen, which asks for the user (left unanswered: this test ends there).
    fakeApi({ [TICKET]: ticketDetail(), [`GET /ops/users/${USER_ID}`]: pending });
    const { router } = renderOps(`/tickets/${TICKET_ID}`, { role: 'support' });
    expect(await findHeading('Where is my payout?')).toBeInTheDocument();
    expect(screen.getByText('I withdrew 20 EUR on Monday and it has not arrived.')).toBeInTheDocument();
    expect(screen.getByText('No files.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: '+37120000000' }));
    expect(currentPath(router)).toBe(`/users/${USER_ID}`);
  });

  it('sends an answer with a file, then shows the ticket waiting for the user', async () => {
    const api = fakeApi({ [TICKET]: ticketDetail(), [REPLY]: answered });
    renderOps(`/tickets/${TICKET_ID}`, { role: 'support' });
    await userEvent.type(await screen.findByLabelText(ANSWER_LABEL), 'It was sent again today.');
    await userEvent.upload(screen.getByLabelText(/Files/), png());
    expect(screen.getByText('receipt.png')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Send answer' }));
    expect(await screen.findByText('waiting for user', { exact: true })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download receipt.png' })).toBeInTheDocument();
    expect(screen.getByLabelText(ANSWER_LABEL)).toHaveValue('');
    expect(api.sent(REPLY)[0]!.body).toEqual({
      message: 'It was sent again today.',
      attachments: [{ name: 'receipt.png', content: btoa('png-bytes') }],
    });
  });

  it('asks for an answer before sending', async () => {
    const api = fakeApi({ [TICKET]: ticketDetail() });
    renderOps(`/tickets/${TICKET_ID}`, { role: 'support' });
    await userEvent.click(await screen.findByRole('button', { name: 'Send answer' }));
    await waitFor(() => expect(screen.getByLabelText(ANSWER_LABEL)).toHaveAttribute('aria-invalid', 'true'));
    expect(api.sent(REPLY)).toHaveLength(0);
  });

  it('refuses more files than one reply takes, and a file above 10 MB', async () => {
    const api = fakeApi({ [TICKET]: ticketDetail() });
    renderOps(`/tickets/${TICKET_ID}`, { role: 'support' });
    const files = await screen.findByLabelText(/Files/);
    await userEvent.upload(files, [png('1.png'), png('2.png'), png('3.png'), png('4.png')]);
    expect(await screen.findByText('At most 3 files with one reply.')).toBeInTheDocument();
    await userEvent.upload(files, [png('big.png', 11 * 1024 * 1024)]);
    expect(await screen.findByText('Each file may be at most 10 MB.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(ANSWER_LABEL), 'Here it is.');
    await userEvent.click(screen.getByRole('button', { name: 'Send answer' }));
    expect(files).toHaveAttribute('aria-invalid', 'true');
    expect(api.sent(REPLY)).toHaveLength(0);
  });

  it('shows why an answer was refused', async () => {
    fakeApi({ [TICKET]: ticketDetail(), [REPLY]: apiError(409, 'ticket_closed', 'This ticket is closed.') });
    renderOps(`/tickets/${TICKET_ID}`, { role: 'support' });
    await userEvent.type(await screen.findByLabelText(ANSWER_LABEL), 'Hello');
    await userEvent.click(screen.getByRole('button', { name: 'Send answer' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This ticket is closed.');
  });

  it('closes a ticket and reopens a closed one', async () => {
    const api = fakeApi({
      [TICKET]: ticketDetail(),
      [`POST /ops/tickets/${TICKET_ID}/close`]: ticketDetail({ status: 'closed' }),
      [`POST /ops/tickets/${TICKET_ID}/reopen`]: ticketDetail({ status: 'open' }),
    });
    renderOps(`/tickets/${TICKET_ID}`, { role: 'support' });
    await userEvent.click(await screen.findByRole('button', { name: 'Close ticket' }));
    expect(await screen.findByText('closed', { exact: true })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Reopen' }));
    expect(await screen.findByRole('button', { name: 'Close ticket' })).toBeInTheDocument();
    expect(api.sent(`POST /ops/tickets/${TICKET_ID}/close`)).toHaveLength(1);
    expect(api.sent(`POST /ops/tickets/${TICKET_ID}/reopen`)).toHaveLength(1);
  });

  it('says when an attachment cannot be downloaded', async () => {
    const attachmentId = answered.attachments[0]!.id;
    fakeApi({
      [TICKET]: answered,
      [`GET /ops/tickets/${TICKET_ID}/attachments/${attachmentId}`]: new Answer(404, {
        message: 'The file is gone.',
        code: 'not_found',
        errors: [],
        validation_errors: {},
      }),
    });
    renderOps(`/tickets/${TICKET_ID}`, { role: 'support' });
    await userEvent.click(await screen.findByRole('button', { name: 'Download receipt.png' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The file is gone.');
  });

  it('shows a contact-form visitor as the sender, and answers them by e-mail, as text', async () => {
    const api = fakeApi({
      [TICKET]: ticketDetail({ title: 'Contact form: Anna', user: null, contact: { name: 'Anna', email: 'anna@example.com' } }),
      [REPLY]: { status: 'waiting_for_user' },
    });
    renderOps(`/tickets/${TICKET_ID}`, { role: 'support' });
    await findHeading('Contact form: Anna');
    expect(screen.getByText(/Anna <anna@example.com>, by the contact page/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: '+37120000000' })).not.toBeInTheDocument();
    expect(screen.getByText(/^Visitor ·/)).toBeInTheDocument();
    expect(screen.queryByText(/Files \(PDF/)).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/e-mailed to anna@example.com/), 'Hello Anna');
    await userEvent.click(screen.getByRole('button', { name: 'Send answer' }));
    await waitFor(() => expect(api.sent(REPLY)).toHaveLength(1));
    expect(api.sent(REPLY)[0]!.body).toEqual({ message: 'Hello Anna', attachments: [] });
  });
});
