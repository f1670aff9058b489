import type {
  CreateTicketBody,
  OperatorTicketSummary,
  Ticket,
  TicketAttachment,
  TicketAttachmentBody,
  TicketStatus,
  TicketSender,
  TicketSummary,
} from '@tipcard/shared/support/schemas';
import { TICKET_TITLE_MAX } from '@tipcard/shared/support/schemas';
import type { Locale } from '@tipcard/shared/constants';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { t } from '../../lib/i18n.ts';
import { cleanFileName } from '../../lib/stored-file.ts';
import { deleteFile, normalizeDocument, readFile, storeFile, type StoredDocument } from '../files/files.service.ts';
import type { MessagingService } from '../messaging/messaging.service.ts';
import { findUserById, requireOwnClient } from '../users/users.service.ts';
import * as repo from './support.repository.ts';

export type SupportService = ReturnType<typeof createSupportService>;

/** A file an operator attaches to a reply: base64 content, typed by its bytes like the user's. */
export interface OperatorAttachment {
  name: string;
  content: string;
}

/** Runs inside an operator's change of a ticket (the back office's audit record): the ticket before, its new status. */
export type OnTicketChange = (
  tx: Executor,
  change: { ticket: repo.TicketRow; status: TicketStatus; attachments: string[] },
) => Promise<void>;

/** Erasure of a deleted account: its tickets, their conversation and files are removed. */
export async function eraseTicketsOfUser(tx: Executor, userId: string): Promise<void> {
  for (const fileId of await repo.deleteTicketsOfUser(tx, userId)) await deleteFile(tx, fileId);
}

/** The data export's `tickets.json`: every ticket with its messages and the attachments' names and types. */
export async function exportTicketsOfUser(db: Executor, userId: string) {
  const rows = await repo.listTicketsWithConversation(db, userId);
  return rows.map(({ ticket, messages, attachments }) => ({
    ...summaryOf(ticket),
    messages: messages.map((m) => ({ author: m.author, message: m.body, created_at: m.createdAt.toISOString() })),
    attachments: attachments.map(attachmentOf),
  }));
}

interface Deps {
  db: Database;
  clock: Clock;
  messages: Pick<MessagingService, 'enqueueSms' | 'enqueueEmail'>;
  publicUrl: string;
}

const summaryOf = (row: repo.TicketRow): TicketSummary => ({
  id: row.id,
  title: row.title,
  status: row.status,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

const attachmentOf = (row: repo.AttachmentRow): TicketAttachment => ({
  id: row.id,
  author: row.author,
  name: row.name,
  mime: row.mime,
  size_bytes: row.sizeBytes,
  created_at: row.createdAt.toISOString(),
});

/** Who wrote a ticket, for the back office: a user, or a visitor of the contact page. */
const senderOf = (row: repo.TicketRow): TicketSender =>
  row.userId === null
    ? { user_id: null, contact: { name: row.contactName!, email: row.contactEmail! } }
    : { user_id: row.userId, contact: null };

/** Statuses after an author's activity (DESIGN "Support"): an operator's reply waits for the user; the user's reopens. */
const statusAfter = (author: repo.Author) => (author === 'operator' ? 'waiting_for_user' : 'open');

/** The support centre: the user's tickets, their messages and attachments, and the operator's side of a reply. */
export function createSupportService({ db, clock, messages, publicUrl }: Deps) {
  /** An operator's answer to a visitor, in the visitor's language, quoting what they last wrote. */
  function contactReply(ticket: repo.TicketRow, reply: string, conversation: repo.MessageRow[]) {
    const language = ticket.contactLanguage as Locale;
    const asked = conversation.filter((message) => message.author === 'user').at(-1)?.body ?? '';
    return {
      to: ticket.contactEmail!,
      subject: t('support.mail.contact_reply_subject', {}, language),
      text: t(
        'support.mail.contact_reply_text',
        { name: ticket.contactName!, reply, message: asked, contact: `${publicUrl}/#/contacts` },
        language,
      ),
    };
  }

  /** The user's own ticket behind their own client; 404 for anyone else's, so ids reveal nothing. */
  async function ownTicket(
    executor: Executor,
    userId: string,
    clientId: string,
    ticketId: string,
    lock = false,
  ): Promise<repo.TicketRow> {
    await requireOwnClient(executor, userId, clientId);
    const ticket = lock ? await repo.lockTicket(executor, ticketId) : await repo.findTicket(executor, ticketId);
    if (!ticket || ticket.userId !== userId) throw new AppError('not_found');
    return ticket;
  }

  /** The user's activity on their ticket: refused once closed (a new ticket is the way back), reopens it otherwise. */
  async function userActivity(
    tx: Executor,
    userId: string,
    clientId: string,
    ticketId: string,
    now: Date,
  ): Promise<repo.TicketRow> {
    const ticket = await ownTicket(tx, userId, clientId, ticketId, true);
    if (ticket.status === 'closed') throw new AppError('ticket_closed');
    await repo.touchTicket(tx, ticket.id, { status: statusAfter('user'), now });
    return ticket;
  }

  /** An operator's change of status, from the states it allows (409 otherwise), under the ticket's lock. */
  async function setStatus(
    ticketId: string,
    from: readonly TicketStatus[],
    status: TicketStatus,
    onChanged?: OnTicketChange,
  ): Promise<TicketSummary> {
    return db.transaction(async (tx) => {
      const ticket = await repo.lockTicket(tx, ticketId);
      if (!ticket) throw new AppError('not_found');
      if (!from.includes(ticket.status)) throw new AppError('ops_conflict');
      const now = clock.now();
      await repo.touchTicket(tx, ticket.id, { status, now });
      await onChanged?.(tx, { ticket, status, attachments: [] });
      return summaryOf({ ...ticket, status, updatedAt: now });
    });
  }

  return {
    async list(userId: string, clientId: string): Promise<TicketSummary[]> {
      await requireOwnClient(db, userId, clientId);
      return (await repo.listTickets(db, userId)).map(summaryOf);
    },

    /** The side bar's badge (spec 2): how many of the user's tickets wait for their answer. */
    async waitingForUser(userId: string): Promise<number> {
      return repo.countTicketsWithStatus(db, userId, 'waiting_for_user');
    },

    async create(
      userId: string,
      clientId: string,
      body: CreateTicketBody & { message?: string | undefined },
    ): Promise<{ id: string }> {
      await requireOwnClient(db, userId, clientId);
      const now = clock.now();
      return db.transaction(async (tx) => {
        const ticket = await repo.insertTicket(tx, { userId, title: body.title, now });
        if (body.message) await repo.insertMessage(tx, { ticketId: ticket.id, author: 'user', body: body.message, now });
        return { id: ticket.id };
      });
    },

    async get(userId: string, clientId: string, ticketId: string): Promise<Ticket> {
      const ticket = await ownTicket(db, userId, clientId, ticketId);
      const [rows, attachments] = await Promise.all([repo.listMessages(db, ticket.id), repo.listAttachments(db, ticket.id)]);
      return {
        ...summaryOf(ticket),
        messages: rows.map((m) => ({ id: m.id, author: m.author, message: m.body, created_at: m.createdAt.toISOString() })),
        attachments: attachments.map(attachmentOf),
      };
    },

    async addMessage(userId: string, clientId: string, ticketId: string, message: string): Promise<void> {
      const now = clock.now();
      await db.transaction(async (tx) => {
        const ticket = await userActivity(tx, userId, clientId, ticketId, now);
        await repo.insertMessage(tx, { ticketId: ticket.id, author: 'user', body: message, now });
      });
    },

    /**
     * An attachment typed by its bytes (PDF, JPEG, PNG or .edoc; images re-encoded, so whatever rides behind an
     * image's data is dropped), at most 10 MB. Checked before the transaction: CPU work holds no connection.
     */
    async addAttachment(
      userId: string,
      clientId: string,
      ticketId: string,
      body: TicketAttachmentBody,
    ): Promise<TicketAttachment> {
      await ownTicket(db, userId, clientId, ticketId);
      const document = await normalizeDocument('content', body.content, { edoc: true });
      const now = clock.now();
      const row = await db.transaction(async (tx) => {
        const ticket = await userActivity(tx, userId, clientId, ticketId, now);
        const fileId = await storeFile(tx, { ownerUserId: userId, mime: document.mime, content: document.content });
        return repo.insertAttachment(tx, {
          ticketId: ticket.id,
          fileId,
          author: 'user',
          name: cleanFileName(body.name),
          mime: document.mime,
          sizeBytes: document.content.byteLength,
          now,
        });
      });
      return attachmentOf(row);
    },

    /** An attachment's bytes for its ticket's owner. */
    async download(userId: string, clientId: string, ticketId: string, attachmentId: string) {
      const ticket = await ownTicket(db, userId, clientId, ticketId);
      const attachment = await repo.findAttachment(db, ticket.id, attachmentId);
      const file = attachment ? await readFile(db, attachment.fileId) : undefined;
      if (!attachment || !file) throw new AppError('not_found');
      return { name: attachment.name, mime: file.mime, content: file.content };
    },

    /**
     * An operator's reply (the back office; tests and the dev route too): the message and its attachments are stored,
     * the ticket waits for the user, and an SMS with the ticket's link is queued, all in one transaction. Attachments
     * are typed and re-encoded as the user's are, before the transaction. `onChanged` runs in that transaction (the
     * back office's audit record), so the reply and its record commit together.
     */
    async replyAsOperator(
      ticketId: string,
      message: string,
      options: { attachments?: readonly OperatorAttachment[]; onChanged?: OnTicketChange } = {},
    ): Promise<void> {
      const body = message.trim();
      if (!body) throw AppError.field('validation_failed', 'message', t('validation.not_blank'));
      const documents: (StoredDocument & { name: string })[] = [];
      const attachments = options.attachments ?? [];
      // A visitor's ticket is answered by e-mail, as text: nothing else of it leaves the back office.
      if (attachments.length > 0 && (await repo.findTicket(db, ticketId))?.userId === null)
        throw AppError.field(
          'validation_failed',
          'attachments',
          'A reply to a contact-form message is e-mailed as text: attach nothing.',
        );
      for (const [index, attachment] of attachments.entries()) {
        const document = await normalizeDocument(`attachments.${index}.content`, attachment.content, { edoc: true });
        documents.push({ ...document, name: cleanFileName(attachment.name) });
      }
      const now = clock.now();
      await db.transaction(async (tx) => {
        const ticket = await repo.lockTicket(tx, ticketId);
        if (!ticket) throw new AppError('not_found');
        await repo.insertMessage(tx, { ticketId: ticket.id, author: 'operator', body, now });
        for (const document of documents) {
          // The file is the user's (their ticket's), so erasing the account erases it with the ticket. A visitor's
          // ticket takes no attachment (checked above), so there is always a user here.
          const fileId = await storeFile(tx, { ownerUserId: ticket.userId!, mime: document.mime, content: document.content });
          await repo.insertAttachment(tx, {
            ticketId: ticket.id,
            fileId,
            author: 'operator',
            name: document.name,
            mime: document.mime,
            sizeBytes: document.content.byteLength,
            now,
          });
        }
        const status = statusAfter('operator');
        await repo.touchTicket(tx, ticket.id, { status, now });
        if (ticket.userId === null) {
          await messages.enqueueEmail(tx, contactReply(ticket, body, await repo.listMessages(tx, ticket.id)));
        } else {
          const user = await findUserById(tx, ticket.userId);
          // The user may turn these texts off in Settings; the answer waits in the support centre either way.
          if (user?.smsSupportReplies && !user.deletedAt)
            await messages.enqueueSms(tx, {
              to: user.phone,
              body: t('sms.support_reply', { url: `${publicUrl}/#/support/${ticket.id}` }, user.language),
            });
        }
        await options.onChanged?.(tx, { ticket, status, attachments: documents.map((document) => document.name) });
      });
    },

    /**
     * A message from the contact page (a visitor with no account): a ticket in the operators' inbox with the visitor's
     * name, e-mail and language, answered by e-mail in that language.
     */
    async openFromContactForm(
      message: { name: string; email: string; message: string; language: Locale },
      onOpened?: (tx: Executor, ticketId: string) => Promise<void>,
    ): Promise<{ id: string }> {
      const now = clock.now();
      return db.transaction(async (tx) => {
        const ticket = await repo.insertTicket(tx, {
          contact: { name: message.name, email: message.email, language: message.language },
          title: `Contact form: ${message.name}`.slice(0, TICKET_TITLE_MAX),
          now,
        });
        await repo.insertMessage(tx, { ticketId: ticket.id, author: 'user', body: message.message, now });
        await onOpened?.(tx, ticket.id);
        return { id: ticket.id };
      });
    },

    // The back office's side (issue 15): any ticket, by status and age.

    /** Tickets of a status (all when none), those waiting longest since their last activity first. */
    async listForOperators(status: TicketStatus | undefined, limit = 200): Promise<OperatorTicketSummary[]> {
      return (await repo.listTicketsByStatus(db, status, limit)).map((row) => ({ ...summaryOf(row), ...senderOf(row) }));
    },

    /** How many tickets are in the status: the back office's "tickets waiting" counts the open ones. */
    countForOperators: (status: TicketStatus) => repo.countTicketsByStatus(db, status),

    /** The user's tickets for the back office's user screen, the most recently active first. */
    async listOfUser(userId: string): Promise<TicketSummary[]> {
      return (await repo.listTickets(db, userId)).map(summaryOf);
    },

    /** One ticket with its conversation and attachments, whoever's it is. */
    async getForOperator(ticketId: string): Promise<Ticket & TicketSender> {
      const ticket = await repo.findTicket(db, ticketId);
      if (!ticket) throw new AppError('not_found');
      const [rows, attachments] = await Promise.all([repo.listMessages(db, ticket.id), repo.listAttachments(db, ticket.id)]);
      return {
        ...summaryOf(ticket),
        ...senderOf(ticket),
        messages: rows.map((m) => ({ id: m.id, author: m.author, message: m.body, created_at: m.createdAt.toISOString() })),
        attachments: attachments.map(attachmentOf),
      };
    },

    /** An attachment's bytes for the back office. */
    async downloadForOperator(ticketId: string, attachmentId: string) {
      const attachment = await repo.findAttachment(db, ticketId, attachmentId);
      const file = attachment ? await readFile(db, attachment.fileId) : undefined;
      if (!attachment || !file) throw new AppError('not_found');
      return { name: attachment.name, mime: file.mime, content: file.content };
    },

    /** Closes a ticket that is not closed (the user then opens a new one to write again). */
    close: (ticketId: string, onChanged?: OnTicketChange) =>
      setStatus(ticketId, ['open', 'waiting_for_user'], 'closed', onChanged),
    /** Opens a closed ticket again, for the operators to carry on with it. */
    reopen: (ticketId: string, onChanged?: OnTicketChange) => setStatus(ticketId, ['closed'], 'open', onChanged),
  };
}
