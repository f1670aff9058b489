import type { ErrorCode } from '@tipcard/shared/errors/error-codes';
import type { Verification, VerificationBody, verificationBody } from '@tipcard/shared/verification/schemas';
import type { z } from 'zod';
import { isUuid } from '@tipcard/shared/uuid';
import type { Database, Executor, Transaction } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { t } from '../../lib/i18n.ts';
import { deleteFile, normalizeDocument, storeFile, type StoredDocument } from '../files/files.service.ts';
import type { MessagingService } from '../messaging/messaging.service.ts';
import { receivedTotalCents } from '../transactions/transactions.service.ts';
import { findUserById, findUserByPhone, requireOwnClient, type User } from '../users/users.service.ts';
import * as repo from './verification.repository.ts';
import type { VerificationRow } from './verification.repository.ts';

type Body = z.output<typeof verificationBody>;
export type { VerificationBody };

/** Whether the user's latest verification request was approved. */
export async function isVerificationApproved(db: Executor, userId: string): Promise<boolean> {
  const latest = await repo.findLatestVerification(db, userId);
  return latest?.status === 'approved';
}

/**
 * Whether the user must verify before taking money out: their received tips (not refunded) reach `limitCents`
 * and they are not approved (spec 4, issue "Identity verification").
 */
export async function isVerificationRequired(db: Executor, userId: string, limitCents: number): Promise<boolean> {
  const received = await receivedTotalCents(db, userId);
  if (received < limitCents) return false;
  return !(await isVerificationApproved(db, userId));
}

/** A request's state; the owner's answer adds the limit (`limit_cents`) that made verification needed. */
type VerificationState = Omit<Verification, 'limit_cents'>;

function toVerification(row: repo.VerificationRow | undefined): VerificationState {
  if (!row) return { status: 'not_started', kind: null, reason: null, submitted_at: null, reviewed_at: null };
  return {
    status: row.status,
    kind: row.kind,
    reason: row.status === 'rejected' ? row.rejectionReason : null,
    submitted_at: row.createdAt.toISOString(),
    reviewed_at: row.reviewedAt?.toISOString() ?? null,
  };
}

/** A new request is allowed when there is none yet or the last one was rejected. */
function refuseWhenOpen(latest: repo.VerificationRow | undefined): void {
  if (latest?.status === 'pending') throw new AppError('verification_pending');
  if (latest?.status === 'approved') throw new AppError('verification_approved');
}

/** Every document of the form checked at once, so the answer names each bad field; nothing is stored on any problem. */
async function checkDocuments(documents: Record<string, string>): Promise<Record<string, StoredDocument>> {
  const entries = Object.entries(documents);
  const results = await Promise.allSettled(entries.map(([field, content]) => normalizeDocument(field, content)));
  const validationErrors: Record<string, string[]> = {};
  const codes = new Set<ErrorCode>();
  const stored: Record<string, StoredDocument> = {};
  results.forEach((result, index) => {
    const field = entries[index]![0];
    if (result.status === 'fulfilled') stored[field] = result.value;
    else if (result.reason instanceof AppError) {
      Object.assign(validationErrors, result.reason.validationErrors);
      codes.add(result.reason.code);
    } else throw result.reason;
  });
  const first = Object.values(validationErrors)[0]?.[0];
  // One file problem for every refused document is answered with its code; a mix is `validation_failed`.
  if (first) throw new AppError(codes.size === 1 ? [...codes][0]! : 'validation_failed', { message: first, validationErrors });
  return stored;
}

export type VerificationService = ReturnType<typeof createVerificationService>;

/** The owner's identity verification: its state, and a submission with its documents. */
export function createVerificationService({ db, verificationLimitCents }: { db: Database; verificationLimitCents: number }) {
  return {
    /** GET: the owner's verification status. */
    async get(userId: string, clientId: string): Promise<Verification> {
      const client = await requireOwnClient(db, userId, clientId);
      const state = toVerification(await repo.findLatestVerification(db, client.userId));
      return { ...state, limit_cents: verificationLimitCents };
    },

    /**
     * POST: a person or company request → pending. Allowed when not started or rejected; documents are typed by
     * content and cleaned before the transaction (CPU work holds no connection), then stored with the request at once.
     */
    async submit(userId: string, clientId: string, body: Body): Promise<Verification> {
      const client = await requireOwnClient(db, userId, clientId);
      refuseWhenOpen(await repo.findLatestVerification(db, client.userId));

      const { kind } = body;
      const details: Record<string, string> =
        body.kind === 'person'
          ? {
              first_name: body.first_name,
              last_name: body.last_name,
              birthday: body.birthday,
              personal_code: body.personal_code,
              address: body.address,
            }
          : {
              company_name: body.company_name,
              registration_number: body.registration_number,
              representative_name: body.representative_name,
              representative_birthday: body.representative_birthday,
              iban: body.iban,
            };
      const documents: Record<string, string> =
        body.kind === 'person'
          ? { document_front: body.document_front.content, document_back: body.document_back.content }
          : { registration_document: body.registration_document.content };
      const checked = await checkDocuments(documents);

      try {
        const row = await db.transaction(async (tx) => {
          const fileIds: Record<string, string> = {};
          for (const [field, document] of Object.entries(checked)) {
            fileIds[field] = await storeFile(tx, { ownerUserId: client.userId, mime: document.mime, content: document.content });
          }
          return repo.insertVerification(tx, {
            userId: client.userId,
            kind,
            status: 'pending',
            details,
            documentFrontFileId: fileIds.document_front ?? null,
            documentBackFileId: fileIds.document_back ?? null,
            registrationDocumentFileId: fileIds.registration_document ?? null,
          });
        });
        return { ...toVerification(row), limit_cents: verificationLimitCents };
      } catch (error) {
        // Another submission of the same user won the race: answer as if it had been there first.
        if (isUniqueViolation(error, repo.ONE_OPEN_PER_USER))
          refuseWhenOpen(await repo.findLatestVerification(db, client.userId));
        throw error;
      }
    },
  };
}

export type ReviewDecision = 'approve' | 'reject';

export class ReviewError extends Error {}

/** A user by id or by phone number (as the operator types it). */
export async function findUserForReview(
  db: Executor,
  reference: string,
  normalizePhone: (input: string) => string | null,
): Promise<User> {
  const byId = isUuid(reference) ? await findUserById(db, reference) : undefined;
  const phone = byId ? null : normalizePhone(reference);
  const user = byId ?? (phone ? await findUserByPhone(db, phone) : undefined);
  if (!user) throw new ReviewError(`No user with id or phone ${reference}`);
  return user;
}

/**
 * The operator's decision on the user's pending request (until the back office exists): approved, or rejected with
 * a reason the user sees. The user is told by SMS, queued with the decision. Only a pending request can be decided,
 * exactly once.
 */
export async function reviewVerification(
  db: Database,
  messages: Pick<MessagingService, 'enqueueSms'>,
  input: { user: Pick<User, 'id' | 'phone' | 'language'>; decision: ReviewDecision; reason: string | null; now: Date },
  /** Runs in the decision's transaction: the back office and the CLI write their audit record here. */
  onDecided?: (tx: Transaction, before: VerificationRow, after: VerificationRow) => Promise<void>,
): Promise<VerificationState> {
  const reason = input.reason?.trim() || null;
  if (input.decision === 'reject' && !reason) throw new ReviewError('A rejection needs a reason the user can act on');
  const latest = await repo.findLatestVerification(db, input.user.id);
  if (latest?.status !== 'pending')
    throw new ReviewError(`No pending verification for this user (status: ${latest?.status ?? 'not_started'})`);
  // The template ends the reason with its own full stop. The template is in the user's language; the reason stays as
  // the operator wrote it (the back office is English only).
  const text =
    input.decision === 'approve'
      ? t('sms.verification_approved', {}, input.user.language)
      : t('sms.verification_rejected', { reason: (reason ?? '').replace(/[.!?\s]+$/, '') }, input.user.language);
  const decided = await db.transaction(async (tx) => {
    const row = await repo.decidePendingVerification(tx, latest.id, {
      status: input.decision === 'approve' ? 'approved' : 'rejected',
      rejectionReason: input.decision === 'reject' ? reason : null,
      reviewedAt: input.now,
    });
    if (!row) throw new ReviewError('The request was decided by someone else meanwhile');
    await messages.enqueueSms(tx, { to: input.user.phone, body: text });
    await onDecided?.(tx, latest, row);
    return row;
  });
  return toVerification(decided);
}

// Back office (issue 15): the compliance queue and one request with its documents.
export const findVerification = repo.findVerification;
export const listPendingVerifications = repo.listPendingVerifications;
export const countPendingVerifications = repo.countPendingVerifications;
export const findLatestVerification = repo.findLatestVerification;

/** The five-year purge of an erased account: its verification requests and their documents are deleted. */
export async function purgeVerificationsOfUser(tx: Executor, userId: string): Promise<void> {
  for (const fileId of await repo.deleteVerificationsOfUser(tx, userId)) await deleteFile(tx, fileId);
}
