import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { signedInRoutes } from '../../test/fixtures.ts';
import { navigatedTo, renderPage, snackbarText } from '../../test/render-page.tsx';
import SupportPage from './support-page.tsx';
import { ATTACH, CREATE_TICKET, TICKET_ID, TICKETS, attachmentAnswer, pdf, ticketSummary } from './test-data.ts';

const openDialog = async () => {
  await userEvent.click(await screen.findByRole('button', { name: 'New ticket' }));
  return screen.getByRole('dialog', { name: 'New support ticket' });
};

describe('the support page', () => {
  it('says it is loading while the tickets are on their way', async () => {
    fakeApi({ ...signedInRoutes(), [TICKETS]: pending });
    await renderPage(<SupportPage />, { path: '/support' });
    expect(await screen.findByRole('status', { name: 'Loading your tickets…' })).toBeInTheDocument();
  });

  it('explains an empty list', async () => {
    fakeApi({ ...signedInRoutes(), [TICKETS]: [] });
    await renderPage(<SupportPage />, { path: '/support' });
    const empty = await screen.findByTestId('tickets-empty');
    expect(within(empty).getByRole('heading')).toHaveTextContent('No tickets yet');
  });

  it('lists each ticket with its status, linking to the conversation, in the reader’s language', async () => {
    fakeApi({
      ...signedInRoutes(),
      [TICKETS]: [
        ticketSummary(),
        ticketSummary({ id: '1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9', title: 'Card', status: 'waiting_for_user' }),
      ],
    });
    await renderPage(<SupportPage />, { path: '/support', locale: 'lv' });
    const links = within(await screen.findByTestId('ticket-list')).getAllByRole('link');
    expect(links).toHaveLength(2);
    expect(links[0]).toHaveTextContent('My payout has not arrived');
    expect(links[0]).toHaveTextContent('Atvērts');
    expect(links[1]).toHaveTextContent('Gaida jūsu atbildi');
    await userEvent.click(links[0]!);
    expect(await navigatedTo()).toBe(`/lv/support/${TICKET_ID}`);
  });

  it('offers to try again after a failed load', async () => {
    let failures = 1;
    const api = fakeApi({
      ...signedInRoutes(),
      [TICKETS]: () => (failures-- > 0 ? apiError(503, 'service_unavailable') : [ticketSummary()]),
    });
    await renderPage(<SupportPage />, { path: '/support' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your tickets could not be loaded.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('My payout has not arrived')).toBeInTheDocument();
    expect(api.sent(TICKETS)).toHaveLength(2);
  });
});

describe('the new ticket dialog', () => {
  it('sends nothing until both the subject and the message are written, and says which is missing', async () => {
    const api = fakeApi({ ...signedInRoutes(), [TICKETS]: [] });
    await renderPage(<SupportPage />, { path: '/support' });
    const dialog = await openDialog();
    const send = within(dialog).getByRole('button', { name: 'Send ticket' });
    expect(send).toHaveAttribute('aria-disabled', 'true');
    expect(dialog).toHaveTextContent('Write a subject and a message to send the ticket.');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Subject' }), 'Payout');
    await userEvent.click(send);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This field is required');
    expect(api.sent(CREATE_TICKET)).toHaveLength(0);
  });

  it('counts the message’s characters', async () => {
    fakeApi({ ...signedInRoutes(), [TICKETS]: [] });
    await renderPage(<SupportPage />, { path: '/support' });
    const dialog = await openDialog();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Message' }), 'Hello');
    expect(dialog).toHaveTextContent('5 of 255 characters');
  });

  it('creates the ticket, sends its file after it and opens the conversation', async () => {
    const api = fakeApi({
      ...signedInRoutes(),
      [TICKETS]: [],
      [CREATE_TICKET]: { id: TICKET_ID },
      [ATTACH]: attachmentAnswer('statement.pdf'),
    });
    await renderPage(<SupportPage />, { path: '/support' });
    const dialog = await openDialog();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Subject' }), '  Payout  ');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Message' }), 'It has not arrived.');
    await userEvent.upload(within(dialog).getByTestId('attachment-input'), pdf('statement.pdf'));
    expect(within(dialog).getByRole('list', { name: 'Files to send' })).toHaveTextContent('statement.pdf');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send ticket' }));
    expect(await navigatedTo()).toBe(`/support/${TICKET_ID}`);
    expect(api.sent(CREATE_TICKET)[0]!.body).toEqual({ title: 'Payout', message: 'It has not arrived.' });
    expect(api.sent(ATTACH)[0]!.body).toMatchObject({ name: 'statement.pdf', mime: 'application/pdf', content: 'eHh4eHg=' });
    expect(snackbarText()).toBe('Your ticket was sent. We will answer soon.');
  });

  it('puts the server’s field errors under the fields', async () => {
    fakeApi({
      ...signedInRoutes(),
      [TICKETS]: [],
      [CREATE_TICKET]: apiError(422, 'validation_failed', 'This value is too long.', { title: ['This value is too long.'] }),
    });
    await renderPage(<SupportPage />, { path: '/support' });
    const dialog = await openDialog();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Subject' }), 'Payout');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Message' }), 'Hello');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send ticket' }));
    const subject = within(dialog).getByRole('textbox', { name: 'Subject' });
    await waitFor(() => expect(subject).toHaveAccessibleDescription('This value is too long.'));
    expect(screen.queryByTestId('navigated-to')).not.toBeInTheDocument();
  });

  it('refuses a file of a type support does not take before anything is sent', async () => {
    fakeApi({ ...signedInRoutes(), [TICKETS]: [] });
    await renderPage(<SupportPage />, { path: '/support' });
    const dialog = await openDialog();
    await userEvent.upload(within(dialog).getByTestId('attachment-input'), new File(['x'], 'run.exe', { type: '' }), {
      applyAccept: false,
    });
    expect(within(dialog).getByRole('alert')).toHaveTextContent('run.exe: this file type is not allowed');
    expect(within(dialog).queryByRole('list', { name: 'Files to send' })).not.toBeInTheDocument();
  });

  it('keeps the refusal of a file on screen instead of “sent”, and still opens the new ticket', async () => {
    fakeApi({
      ...signedInRoutes(),
      [TICKETS]: [],
      [CREATE_TICKET]: { id: TICKET_ID },
      [ATTACH]: apiError(422, 'invalid_file', 'The file is not a PDF, JPG, PNG or EDOC.'),
    });
    await renderPage(<SupportPage />, { path: '/support' });
    const dialog = await openDialog();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Subject' }), 'Payout');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Message' }), 'Hello');
    await userEvent.upload(within(dialog).getByTestId('attachment-input'), pdf('fake.pdf'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send ticket' }));
    expect(await navigatedTo()).toBe(`/support/${TICKET_ID}`);
    expect(snackbarText()).toBe('This file type is not allowed');
  });

  it('starts empty again after Cancel', async () => {
    fakeApi({ ...signedInRoutes(), [TICKETS]: [] });
    await renderPage(<SupportPage />, { path: '/support' });
    let dialog = await openDialog();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Subject' }), 'Payout');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    dialog = await openDialog();
    expect(within(dialog).getByRole('textbox', { name: 'Subject' })).toHaveValue('');
  });
});
