import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { signedInRoutes } from '../../test/fixtures.ts';
import { renderPage, snackbarText } from '../../test/render-page.tsx';
import TicketPage from './ticket-page.tsx';
import { ATTACH, REPLY, TICKET, TICKET_ID, TICKETS, attachmentAnswer, pdf, ticket } from './test-data.ts';

const open = (locale: 'en' | 'fr' = 'en') =>
  renderPage(<TicketPage />, { path: `/support/${TICKET_ID}`, route: '/support/:ticketId', locale });

const replyBox = () => screen.findByRole('textbox', { name: 'Your reply' });

describe('the ticket page', () => {
  it('says it is loading while the ticket is on its way', async () => {
    fakeApi({ ...signedInRoutes(), [TICKET]: pending });
    await open();
    expect(await screen.findByRole('status', { name: 'Loading the ticket…' })).toBeInTheDocument();
  });

  it('shows the conversation in order, the operator apart from the user, with the file to download', async () => {
    fakeApi({ ...signedInRoutes(), [TICKET]: ticket({ status: 'waiting_for_user' }) });
    await open('fr');
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('My payout has not arrived');
    expect(screen.getByTestId('ticket-status')).toHaveTextContent('Nouvelle réponse');
    const entries = within(screen.getByTestId('conversation')).getAllByRole('listitem');
    expect(entries.map((entry) => entry.textContent)).toEqual([
      expect.stringContaining('My withdrawal of 20 EUR'),
      expect.stringContaining('statement.pdf'),
      expect.stringContaining('We sent it again'),
    ]);
    expect(entries[2]).toHaveTextContent('Assistance Tipcard');
    expect(screen.getByRole('button', { name: /Télécharger statement\.pdf/ })).toBeInTheDocument();
  });

  it('says a ticket that is not the user’s does not exist', async () => {
    fakeApi({ ...signedInRoutes(), [TICKET]: apiError(404, 'not_found') });
    await open();
    expect(await screen.findByRole('alert')).toHaveTextContent('This ticket does not exist or is not yours.');
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });

  it('offers to try again when the ticket could not be loaded', async () => {
    let failures = 1;
    fakeApi({ ...signedInRoutes(), [TICKET]: () => (failures-- > 0 ? apiError(503, 'service_unavailable') : ticket()) });
    await open();
    await userEvent.click(within(await screen.findByRole('alert')).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('conversation')).toHaveTextContent('statement.pdf');
  });

  it('has no reply box on a closed ticket', async () => {
    fakeApi({ ...signedInRoutes(), [TICKET]: ticket({ status: 'closed' }) });
    await open();
    expect(await screen.findByText('This ticket is closed. Open a new ticket if you need more help.')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Your reply' })).not.toBeInTheDocument();
  });
});

describe('the reply', () => {
  it('sends nothing while the reply is empty', async () => {
    const api = fakeApi({ ...signedInRoutes(), [TICKET]: ticket() });
    await open();
    await replyBox();
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(send);
    expect(api.sent(REPLY)).toHaveLength(0);
  });

  it('sends the message, shows the answered conversation and empties the box', async () => {
    const answered = ticket();
    answered.messages.push({
      id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4e',
      author: 'user',
      message: 'Thank you!',
      created_at: '2026-03-04T08:00:00Z',
    });
    const api = fakeApi({ ...signedInRoutes(), [TICKET]: ticket(), [REPLY]: answered, [TICKETS]: [] });
    await open();
    await userEvent.type(await replyBox(), '  Thank you!  ');
    expect(screen.getByText('14 of 255 characters')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.getByTestId('conversation')).toHaveTextContent('Thank you!'));
    expect(api.sent(REPLY)[0]!.body).toEqual({ message: 'Thank you!' });
    expect(await replyBox()).toHaveValue('');
    expect(snackbarText()).toBe('Your reply was sent.');
  });

  it('sends a file alone, and keeps a refused one to fix with the reason on screen', async () => {
    let refuse = false;
    const api = fakeApi({
      ...signedInRoutes(),
      [TICKET]: ticket(),
      [TICKETS]: [],
      [ATTACH]: () =>
        refuse ? apiError(422, 'invalid_file', 'The file is not a PDF, JPG, PNG or EDOC.') : attachmentAnswer('receipt.pdf'),
    });
    await open();
    const input = await screen.findByTestId('attachment-input');
    await userEvent.upload(input, pdf('receipt.pdf'));
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(snackbarText()).toBe('Your reply was sent.'));
    expect(screen.queryByRole('list', { name: 'Files to send' })).not.toBeInTheDocument();

    refuse = true;
    await userEvent.upload(screen.getByTestId('attachment-input'), pdf('fake.pdf'));
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(api.sent(ATTACH)).toHaveLength(2));
    expect(await screen.findByRole('list', { name: 'Files to send' })).toHaveTextContent('fake.pdf');
    expect(snackbarText()).toBe('This file type is not allowed');
  });

  it('forgets what it said about a file refused before sending once the reply has gone', async () => {
    fakeApi({ ...signedInRoutes(), [TICKET]: ticket(), [TICKETS]: [], [ATTACH]: attachmentAnswer('receipt.pdf') });
    await open();
    const input = await screen.findByTestId('attachment-input');
    await userEvent.upload(input, new File(['x'], 'notes.txt', { type: 'text/plain' }), { applyAccept: false });
    expect(await screen.findByText('notes.txt: this file type is not allowed')).toBeInTheDocument();
    await userEvent.upload(screen.getByTestId('attachment-input'), pdf('receipt.pdf'));
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(snackbarText()).toBe('Your reply was sent.'));
    expect(screen.queryByText('notes.txt: this file type is not allowed')).toBeNull();
  });

  it('puts the server’s refusal of the message under the box', async () => {
    fakeApi({
      ...signedInRoutes(),
      [TICKET]: ticket(),
      [REPLY]: apiError(422, 'validation_failed', 'This value is not valid.', { message: ['This value is not valid.'] }),
    });
    await open();
    await userEvent.type(await replyBox(), 'Hello');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Your reply' })).toHaveAccessibleDescription('This value is not valid.'),
    );
    expect(screen.getByRole('textbox', { name: 'Your reply' })).toHaveValue('Hello');
  });
});
