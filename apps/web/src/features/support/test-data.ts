import type { Ticket, TicketSummary } from '@tipcard/shared/support/schemas';
import { CLIENT_ID } from '../../test/fixtures.ts';

export const TICKET_ID = '5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
export const TICKETS = `GET /clients/${CLIENT_ID}/tickets`;
export const CREATE_TICKET = `POST /clients/${CLIENT_ID}/tickets`;
export const TICKET = `GET /clients/${CLIENT_ID}/tickets/${TICKET_ID}`;
export const REPLY = `POST /clients/${CLIENT_ID}/tickets/${TICKET_ID}/messages`;
export const ATTACH = `POST /clients/${CLIENT_ID}/tickets/${TICKET_ID}/attachments`;

export function ticketSummary(overrides: Partial<TicketSummary> = {}): TicketSummary {
  return {
    id: TICKET_ID,
    title: 'My payout has not arrived',
    status: 'open',
    created_at: '2026-03-02T09:30:00Z',
    updated_at: '2026-03-03T14:05:00Z',
    ...overrides,
  };
}

export function ticket(overrides: Partial<Ticket> = {}): Ticket {
  return {
    ...ticketSummary(),
    messages: [
      {
        id: '6b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e',
        author: 'user',
        message: 'My withdrawal of 20 EUR on Monday has not arrived.',
        created_at: '2026-03-02T09:30:00Z',
      },
      {
        id: '7c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f',
        author: 'operator',
        message: 'We sent it again; it arrives tomorrow.',
        created_at: '2026-03-03T14:05:00Z',
      },
    ],
    attachments: [
      {
        id: '8d4e5f6a-7b8c-4d9e-8f0a-1b2c3d4e5f6a',
        author: 'user',
        name: 'statement.pdf',
        mime: 'application/pdf',
        size_bytes: 48_000,
        created_at: '2026-03-02T09:30:00Z',
      },
    ],
    ...overrides,
  };
}

export const attachmentAnswer = (name: string) => ({
  id: '9e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a7b',
  author: 'user' as const,
  name,
  mime: 'application/pdf',
  size_bytes: 5,
  created_at: '2026-03-04T10:00:00Z',
});

export const pdf = (name: string, size = 5) => new File(['x'.repeat(size)], name, { type: 'application/pdf' });
