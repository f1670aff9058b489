import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '@tipcard/shared/constants';
import { normalizePhone } from '@tipcard/shared/auth/phone';
import { files } from '../../db/schema/files.ts';
import { verifications } from '../../db/schema/verification.ts';
import { deliverSandboxEvent, receiveTip } from '../../test/sandbox-events.ts';
import { chooseLanguage, createTestApp, signUp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { createMessagingService } from '../messaging/messaging.service.ts';
import { findUserById } from '../users/users.service.ts';
import {
  findUserForReview,
  isVerificationApproved,
  isVerificationRequired,
  ReviewError,
  reviewVerification,
} from './verification.service.ts';
import { textPdf } from '../../test/pdf.ts';

/** 10 EUR: a few small tips pass it. No fee, so what the guest pays is what the staff member receives. */
const LIMIT_CENTS = 1_000;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { FEE_PERCENT: '0', VERIFICATION_LIMIT_CENTS: String(LIMIT_CENTS) } });
});
afterAll(() => t.close());

type User = Awaited<ReturnType<typeof signUp>>;

/** A real PNG, with EXIF metadata that must not be stored. */
async function pngBytes(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 40, channels: 3, background: '#1e3a8a' } })
    .png()
    .withExif({ IFD0: { Make: 'TestCam', Copyright: 'secret-owner' } })
    .toBuffer();
}

/** A real one-page PDF made with pdfkit (made once: pdfkit stamps the time into every file). */
const samplePdf = textPdf('Company registration certificate');
const pdfBytes = () => samplePdf;

const attachment = (bytes: Buffer, name = 'doc.png', mime = 'image/png') => ({ content: bytes.toString('base64'), name, mime });

async function personBody(overrides: Record<string, unknown> = {}) {
  const png = await pngBytes();
  return {
    kind: 'person',
    first_name: 'Anna',
    last_name: 'Bērziņa',
    birthday: '1994-03-17',
    personal_code: '170394-12345',
    address: 'Brīvības iela 1, Rīga, LV-1010',
    document_front: attachment(png, 'front.png'),
    document_back: attachment(await pdfBytes(), 'back.pdf', 'application/pdf'),
    ...overrides,
  };
}

async function companyBody(overrides: Record<string, unknown> = {}) {
  return {
    kind: 'company',
    company_name: 'Kafejnīca SIA',
    registration_number: '40003000000',
    representative_name: 'Jānis Kalniņš',
    representative_birthday: '1980-11-02',
    iban: 'lv80 bank 0000 4351 9500 1',
    registration_document: attachment(await pdfBytes(), 'registration.pdf', 'application/pdf'),
    ...overrides,
  };
}

const submit = (user: User, payload: unknown, clientId = user.clientId) =>
  t.call({
    method: 'POST',
    url: `/api/clients/${clientId}/verification`,
    token: user.jwt,
    payload: payload as object,
  });
const status = (user: User, clientId = user.clientId) =>
  t.call({ method: 'GET', url: `/api/clients/${clientId}/verification`, token: user.jwt });

async function counts() {
  const [fileRows] = await t.app.db.select({ n: count() }).from(files);
  const [verificationRows] = await t.app.db.select({ n: count() }).from(verifications);
  return { files: fileRows!.n, verifications: verificationRows!.n };
}

/** The decision as the back office and the CLI take it: on the user's row as stored, its language with it. */
const review = async (user: User, decision: 'approve' | 'reject', reason: string | null = null) =>
  reviewVerification(t.app.db, createMessagingService({ db: t.app.db, clock: t.clock }), {
    user: (await findUserById(t.app.db, user.userId))!,
    decision,
    reason,
    now: t.clock.now(),
  });

async function lastSms(phone: string): Promise<string> {
  const { body } = await t.call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(phone)}` });
  return body.data[0]?.body ?? '';
}

describe('verification: submitting', () => {
  it('starts as not_started, takes the person form with a PNG and a PDF, and answers pending', async () => {
    const user = await signUp(t);
    expect((await status(user)).body.data).toEqual({
      status: 'not_started',
      kind: null,
      reason: null,
      submitted_at: null,
      reviewed_at: null,
      limit_cents: LIMIT_CENTS,
    });

    const created = await submit(user, await personBody());
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ status: 'pending', kind: 'person', reason: null, reviewed_at: null });
    expect(Date.parse(created.body.data.submitted_at)).not.toBeNaN();
    expect((await status(user)).body.data).toEqual(created.body.data);

    const [row] = await t.app.db.select().from(verifications).where(eq(verifications.userId, user.userId));
    expect(row!.details).toEqual({
      first_name: 'Anna',
      last_name: 'Bērziņa',
      birthday: '1994-03-17',
      personal_code: '170394-12345',
      address: 'Brīvības iela 1, Rīga, LV-1010',
    });
    const [front] = await t.app.db.select().from(files).where(eq(files.id, row!.documentFrontFileId!));
    const [back] = await t.app.db.select().from(files).where(eq(files.id, row!.documentBackFileId!));
    // The image is re-encoded as PNG without its metadata; the PDF is kept byte for byte.
    expect(front!.mime).toBe('image/png');
    const meta = await sharp(Buffer.from(front!.content)).metadata();
    expect(meta.format).toBe('png');
    expect(meta.exif).toBeUndefined();
    expect(Buffer.from(front!.content).includes('secret-owner')).toBe(false);
    expect(back!.mime).toBe('application/pdf');
    expect(Buffer.from(back!.content).equals(await samplePdf)).toBe(true);
    expect(front!.ownerUserId).toBe(user.userId);
  });

  it('takes the company form with a PDF registration document and stores the IBAN in electronic form', async () => {
    const user = await signUp(t);
    const created = await submit(user, await companyBody());
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ status: 'pending', kind: 'company' });
    const [row] = await t.app.db.select().from(verifications).where(eq(verifications.userId, user.userId));
    expect(row!.details).toMatchObject({
      company_name: 'Kafejnīca SIA',
      iban: 'LV80BANK0000435195001',
      representative_birthday: '1980-11-02',
    });
    expect(row!.registrationDocumentFileId).not.toBeNull();
    expect(row!.documentFrontFileId).toBeNull();
  });

  it('refuses a file that starts with %PDF but carries HTML and script, and a PDF that launches a program, and stores nothing', async () => {
    const user = await signUp(t);
    const before = await counts();
    const polyglot = Buffer.from('%PDF-1.7\n<html><body><script>fetch("/api/me")</script></body></html>\n%%EOF');
    const refused = await submit(user, await personBody({ document_back: attachment(polyglot, 'id.pdf', 'application/pdf') }));
    expect(refused.status).toBe(422);
    expect(refused.body.validation_errors).toEqual({ document_back: ['This file type is not allowed'] });

    // A real PDF whose page starts a program when opened: refused with its own code.
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /AA << /O << /S /Launch /F (cmd.exe) >> >> >>',
    ];
    let body = '%PDF-1.4\n';
    const offsets = objects.map(
      (object, index) => [body.length, (body += `${index + 1} 0 obj\n${object}\nendobj\n`)][0] as number,
    );
    const xref = body.length;
    body += `xref\n0 4\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
    const launcher = Buffer.from(`${body}trailer\n<< /Size 4 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`, 'latin1');
    const active = await submit(user, await personBody({ document_back: attachment(launcher, 'id.pdf', 'application/pdf') }));
    expect(active.status).toBe(422);
    expect(active.body.code).toBe('file_active_content');
    expect(active.body.validation_errors).toEqual({
      document_back: ['This file contains scripts, links, actions or attached files, which are not allowed'],
    });
    expect(await counts()).toEqual(before);
  });

  it('refuses files by their content, whatever their name and mime claim, and stores nothing', async () => {
    const user = await signUp(t);
    const before = await counts();
    const text = Buffer.from('this is plain text pretending to be a PNG image, not an identity document');
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    const refused = await submit(
      user,
      await personBody({
        document_front: attachment(text, 'id.png', 'image/png'),
        document_back: attachment(gif, 'id.pdf', 'application/pdf'),
      }),
    );
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('invalid_file');
    expect(refused.body.validation_errors).toEqual({
      document_front: ['This file type is not allowed'],
      document_back: ['This file type is not allowed'],
    });
    expect(refused.body.errors[0]).toBe('This file type is not allowed');

    // A truncated PNG: right magic bytes, no image behind them.
    const broken = (await pngBytes()).subarray(0, 40);
    const brokenAnswer = await submit(user, await companyBody({ registration_document: attachment(broken) }));
    expect(brokenAnswer.status).toBe(422);
    expect(brokenAnswer.body.validation_errors).toEqual({ registration_document: ['This file type is not allowed'] });

    const notBase64 = await submit(
      user,
      await personBody({ document_back: { content: 'not base64!', name: 'a.pdf', mime: 'application/pdf' } }),
    );
    expect(notBase64.status).toBe(422);
    expect(notBase64.body.validation_errors).toEqual({ document_back: ['Enter valid data'] });

    expect(await counts()).toEqual(before);
    expect((await status(user)).body.data.status).toBe('not_started');
  });

  it('refuses a document over 10 MB on its field, and nothing is stored', async () => {
    const user = await signUp(t);
    const before = await counts();
    const pdf = await pdfBytes();
    const big = Buffer.concat([pdf, Buffer.alloc(MAX_UPLOAD_BYTES + 1 - pdf.length, 0x20)]);
    const answer = await submit(user, await personBody({ document_back: attachment(big, 'big.pdf', 'application/pdf') }));
    expect(answer.status).toBe(422);
    expect(answer.body.validation_errors).toEqual({ document_back: ['File is too large'] });
    expect(await counts()).toEqual(before);

    // Exactly 10 MB is allowed.
    const limit = Buffer.concat([pdf, Buffer.alloc(MAX_UPLOAD_BYTES - pdf.length, 0x20)]);
    const accepted = await submit(user, await personBody({ document_back: attachment(limit, 'limit.pdf', 'application/pdf') }));
    expect(accepted.status).toBe(201);
  });

  it('answers bad fields with field-level validation_errors in the spec format', async () => {
    const user = await signUp(t);
    const before = await counts();
    const today = t.clock.now();
    const fifteen = `${today.getUTCFullYear() - 15}-01-01`;
    const young = await submit(user, await personBody({ birthday: fifteen, first_name: '  ', document_back: undefined }));
    expect(young.status).toBe(422);
    expect(young.body.code).toBe('validation_failed');
    expect(young.body.validation_errors).toEqual({
      first_name: ['This value should not be blank.'],
      birthday: ['You must be at least 16 years old'],
      document_back: ['This field is required'],
    });

    const badDate = await submit(user, await personBody({ birthday: '1990-02-30' }));
    expect(badDate.body.validation_errors).toEqual({ birthday: ['Enter valid data'] });

    const badIban = await submit(user, await companyBody({ iban: 'LV80BANK0000435195002', company_name: '' }));
    expect(badIban.status).toBe(422);
    expect(badIban.body.validation_errors).toEqual({
      company_name: ['This value should not be blank.'],
      iban: ['Enter a valid IBAN'],
    });

    const badKind = await submit(user, { kind: 'robot' });
    expect(badKind.status).toBe(422);

    expect(await counts()).toEqual(before);
  });

  it("answers 404 for another user's client, and 401 without a token", async () => {
    const owner = await signUp(t);
    const stranger = await signUp(t);
    expect((await status(stranger, owner.clientId)).status).toBe(404);
    const before = await counts();
    expect((await submit(stranger, await personBody(), owner.clientId)).status).toBe(404);
    expect((await t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/verification` })).status).toBe(401);
    expect((await status(owner, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect(await counts()).toEqual(before);
  });
});

describe('verification: review and resubmission', () => {
  it('refuses a new request while pending or approved, takes one again after a rejection', async () => {
    const user = await signUp(t);
    expect((await submit(user, await personBody())).status).toBe(201);

    const before = await counts();
    const again = await submit(user, await companyBody());
    expect(again.status).toBe(422);
    expect(again.body.code).toBe('verification_pending');
    expect(await counts()).toEqual(before);

    const rejected = await review(user, 'reject', 'The photo of the document is blurred');
    expect(rejected).toMatchObject({ status: 'rejected', reason: 'The photo of the document is blurred' });
    expect((await status(user)).body.data).toMatchObject({
      status: 'rejected',
      kind: 'person',
      reason: 'The photo of the document is blurred',
    });
    expect(await lastSms(user.phone)).toContain('The photo of the document is blurred');

    const resubmitted = await submit(user, await companyBody());
    expect(resubmitted.status).toBe(201);
    expect(resubmitted.body.data).toMatchObject({ status: 'pending', kind: 'company', reason: null });

    const approved = await review(user, 'approve');
    expect(approved.status).toBe('approved');
    expect(await lastSms(user.phone)).toMatch(/approved/);
    expect(await isVerificationApproved(t.app.db, user.userId)).toBe(true);

    const afterApproval = await submit(user, await personBody());
    expect(afterApproval.status).toBe(422);
    expect(afterApproval.body.code).toBe('verification_approved');
  });

  it("tells a Latvian user each decision in Latvian, the operator's reason as written", async () => {
    const user = await signUp(t);
    await chooseLanguage(t, user, 'lv');
    expect((await submit(user, await personBody())).status).toBe(201);
    await review(user, 'reject', 'The photo of the document is blurred.');
    expect(await lastSms(user.phone)).toBe(
      'Tipcard: jūsu identitātes verifikācija netika apstiprināta: The photo of the document is blurred. Atveriet sadaļu Verifikācija lietotnē Tipcard, lai to iesniegtu vēlreiz.',
    );
    expect((await submit(user, await personBody())).status).toBe(201);
    await review(user, 'approve');
    expect(await lastSms(user.phone)).toBe('Tipcard: jūsu identitātes verifikācija ir apstiprināta. Paldies!');
  });

  it('decides only a pending request, once, and a rejection needs a reason', async () => {
    const user = await signUp(t);
    await expect(review(user, 'approve')).rejects.toThrow(ReviewError);
    await submit(user, await personBody());
    await expect(review(user, 'reject', '   ')).rejects.toThrow(/reason/);
    expect((await status(user)).body.data.status).toBe('pending');
    await review(user, 'approve');
    await expect(review(user, 'reject', 'too late')).rejects.toThrow(ReviewError);
    expect((await status(user)).body.data.status).toBe('approved');
  });

  it('finds the user by id or by phone as the operator types it', async () => {
    const user = await signUp(t);
    expect((await findUserForReview(t.app.db, user.userId, normalizePhone)).id).toBe(user.userId);
    const typed = `${user.phone.slice(0, 4)} ${user.phone.slice(4, 8)} ${user.phone.slice(8)}`;
    expect((await findUserForReview(t.app.db, typed, normalizePhone)).id).toBe(user.userId);
    await expect(findUserForReview(t.app.db, '+37120999999', normalizePhone)).rejects.toThrow(ReviewError);
    await expect(findUserForReview(t.app.db, 'nobody', normalizePhone)).rejects.toThrow(ReviewError);
  });
});

describe('verification: required once received tips reach the limit', () => {
  const receive = (owner: { cardId: string }, cents: number) => receiveTip(t, owner.cardId, cents);
  const deliver = async (payment: Parameters<typeof deliverSandboxEvent>[1], type: 'payment.succeeded' | 'payment.refunded') =>
    expect(await deliverSandboxEvent(t, payment, type)).toBe('applied');

  const me = async (user: User) => (await t.call({ method: 'GET', url: '/api/me', token: user.jwt })).body.data;

  it('flips /me verification_required to true at the limit and back to false after approval', async () => {
    const staff = await signUpWithCard(t);
    expect((await me(staff)).verification_required).toBe(false);
    await receive(staff, 600);
    expect((await me(staff)).verification_required).toBe(false);
    expect(await isVerificationRequired(t.app.db, staff.userId, LIMIT_CENTS)).toBe(false);
    await receive(staff, 400);
    expect((await me(staff)).verification_required).toBe(true);

    await submit(staff, await personBody());
    // Pending is not approved: still required.
    expect((await me(staff)).verification_required).toBe(true);
    await review(staff, 'approve');
    expect((await me(staff)).verification_required).toBe(false);
    expect(await isVerificationRequired(t.app.db, staff.userId, LIMIT_CENTS)).toBe(false);
  });

  it('does not count refunded tips', async () => {
    const staff = await signUpWithCard(t);
    await receive(staff, 300);
    const big = await receive(staff, 900);
    expect((await me(staff)).verification_required).toBe(true);
    await deliver(big, 'payment.refunded');
    expect((await me(staff)).verification_required).toBe(false);
  });

  it('does not count other users’ tips', async () => {
    const rich = await signUpWithCard(t);
    const other = await signUpWithCard(t);
    await receive(rich, 1_500);
    expect((await me(rich)).verification_required).toBe(true);
    expect((await me(other)).verification_required).toBe(false);
  });
});
