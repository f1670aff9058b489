import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { supportAttachments, supportMessages, supportTickets } from '../../db/schema/support.ts';

export type TicketRow = typeof supportTickets.$inferSelect;
export type MessageRow = typeof supportMessages.$inferSelect;
export type AttachmentRow = typeof supportAttachments.$inferSelect;
export type Author = MessageRow['author'];

/** A ticket of a user, or of a visitor who wrote from the contact page (their name, e-mail and language). */
export async function insertTicket(
  db: Executor,
  values: { title: string; now: Date } & ({ userId: string } | { contact: { name: string; email: string; language: string } }),
): Promise<TicketRow> {
  const from =
    'userId' in values
      ? { userId: values.userId }
      : { contactName: values.contact.name, contactEmail: values.contact.email, contactLanguage: values.contact.language };
  const [row] = await db
    .insert(supportTickets)
    .values({ ...from, title: values.title, status: 'open', createdAt: values.now, updatedAt: values.now })
    .returning();
  return row!;
}

/** The user's tickets, the most recently active first. */
export async function listTickets(db: Executor, userId: string): Promise<TicketRow[]> {
  return db
    .select()
    .from(supportTickets)
    .where(eq(supportTickets.userId, userId))
    .orderBy(desc(supportTickets.updatedAt), desc(supportTickets.id));
}

/** Tickets of a status (every status when none), the longest without activity first: the back office's inbox. */
export async function listTicketsByStatus(
  db: Executor,
  status: TicketRow['status'] | undefined,
  limit: number,
): Promise<TicketRow[]> {
  return db
    .select()
    .from(supportTickets)
    .where(status ? eq(supportTickets.status, status) : undefined)
    .orderBy(asc(supportTickets.updatedAt), asc(supportTickets.id))
    .limit(limit);
}

export async function countTicketsWithStatus(db: Executor, userId: string, status: TicketRow['status']): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(supportTickets)
    .where(and(eq(supportTickets.userId, userId), eq(supportTickets.status, status)));
  return row!.n;
}

export async function findTicket(db: Executor, ticketId: string): Promise<TicketRow | undefined> {
  const [row] = await db.select().from(supportTickets).where(eq(supportTickets.id, ticketId));
  return row;
}

/** Locks the ticket for a change of its status, so a user's reply and an operator's reply are applied one after the other. */
export async function lockTicket(db: Executor, ticketId: string): Promise<TicketRow | undefined> {
  const [row] = await db.select().from(supportTickets).where(eq(supportTickets.id, ticketId)).for('update');
  return row;
}

export async function touchTicket(
  db: Executor,
  ticketId: string,
  changes: { status: TicketRow['status']; now: Date },
): Promise<void> {
  await db.update(supportTickets).set({ status: changes.status, updatedAt: changes.now }).where(eq(supportTickets.id, ticketId));
}

export async function insertMessage(
  db: Executor,
  values: { ticketId: string; author: Author; body: string; now: Date },
): Promise<MessageRow> {
  const [row] = await db
    .insert(supportMessages)
    .values({ ticketId: values.ticketId, author: values.author, body: values.body, createdAt: values.now })
    .returning();
  return row!;
}

export async function listMessages(db: Executor, ticketId: string): Promise<MessageRow[]> {
  return db.select().from(supportMessages).where(eq(supportMessages.ticketId, ticketId)).orderBy(asc(supportMessages.seq));
}

export async function insertAttachment(
  db: Executor,
  values: { ticketId: string; fileId: string; author: Author; name: string; mime: string; sizeBytes: number; now: Date },
): Promise<AttachmentRow> {
  const { now, ...rest } = values;
  const [row] = await db
    .insert(supportAttachments)
    .values({ ...rest, createdAt: now })
    .returning();
  return row!;
}

export async function listAttachments(db: Executor, ticketId: string): Promise<AttachmentRow[]> {
  return db
    .select()
    .from(supportAttachments)
    .where(eq(supportAttachments.ticketId, ticketId))
    .orderBy(asc(supportAttachments.seq));
}

export async function findAttachment(db: Executor, ticketId: string, attachmentId: string): Promise<AttachmentRow | undefined> {
  const [row] = await db
    .select()
    .from(supportAttachments)
    .where(and(eq(supportAttachments.id, attachmentId), eq(supportAttachments.ticketId, ticketId)));
  return row;
}

/** Every ticket of the user with its messages and attachments (erasure); answers the attachments' file ids. */
export async function deleteTicketsOfUser(tx: Executor, userId: string): Promise<string[]> {
  const tickets = tx.select({ id: supportTickets.id }).from(supportTickets).where(eq(supportTickets.userId, userId));
  const removed = await tx
    .delete(supportAttachments)
    .where(inArray(supportAttachments.ticketId, tickets))
    .returning({ fileId: supportAttachments.fileId });
  await tx.delete(supportMessages).where(inArray(supportMessages.ticketId, tickets));
  await tx.delete(supportTickets).where(eq(supportTickets.userId, userId));
  return removed.map((row) => row.fileId);
}

export async function listTicketsWithConversation(db: Executor, userId: string) {
  const tickets = await listTickets(db, userId);
  return Promise.all(
    tickets.map(async (ticket) => ({
      ticket,
      messages: await listMessages(db, ticket.id),
      attachments: await listAttachments(db, ticket.id),
    })),
  );
}

/** How many tickets are in a status, whoever's (the back office's work queue). */
export async function countTicketsByStatus(db: Executor, status: TicketRow['status']): Promise<number> {
  const [row] = await db.select({ n: count() }).from(supportTickets).where(eq(supportTickets.status, status));
  return row!.n;
}
