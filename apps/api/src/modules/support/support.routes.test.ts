import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '../../db/schema/files.ts';
import { supportAttachments, supportTickets } from '../../db/schema/support.ts';
import { zip } from '../../lib/zip.ts';
import { chooseLanguage, createTestApp, signUp, type TestApp } from '../../test/test-app.ts';
import { textPdf } from '../../test/pdf.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type User = Awaited<ReturnType<typeof signUp>>;

const pdf = textPdf('Bank statement');
const png = () =>
  sharp({ create: { width: 32, height: 20, channels: 3, background: '#1e3a8a' } })
    .png()
    .toBuffer();

/** An ASiC-E container as the Latvian eParaksts tools write it: `mimetype` first and stored, the document, a signature. */
async function edoc(document?: Buffer): Promise<Buffer> {
  return zip(
    [
      { name: 'mimetype', content: 'application/vnd.etsi.asic-e+zip', stored: true },
      { name: 'statement.pdf', content: document ?? (await pdf) },
      { name: 'META-INF/manifest.xml', content: '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest/>' },
      { name: 'META-INF/signatures0.xml', content: '<?xml version="1.0" encoding="UTF-8"?><asic:XAdESSignatures/>' },
    ],
    new Date('2026-03-01T10:00:00Z'),
  );
}

/** A PDF whose page runs JavaScript when it is opened: no document-level script, which was all pdf.js was asked about. */
function javaScriptPdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /AA << /O << /S /JavaScript /JS (app.launchURL\\("https://phish.example"\\)) >> >> >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets = objects.map((object, index) => {
    const offset = body.length;
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = body.length;
  body += `xref\n0 4\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  return Buffer.from(`${body}trailer\n<< /Size 4 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`, 'latin1');
}

const upload = (bytes: Buffer, name: string, mime: string) => ({ content: bytes.toString('base64'), name, mime });

const url = (user: User, rest = '') => `/api/clients/${user.clientId}/tickets${rest}`;
const open = (user: User, payload: object) => t.call({ method: 'POST', url: url(user), token: user.jwt, payload });
const list = (user: User) => t.call({ method: 'GET', url: url(user), token: user.jwt });
const read = (user: User, ticketId: string) => t.call({ method: 'GET', url: url(user, `/${ticketId}`), token: user.jwt });
const reply = (user: User, ticketId: string, message: string) =>
  t.call({ method: 'POST', url: url(user, `/${ticketId}/messages`), token: user.jwt, payload: { message } });
const attach = (user: User, ticketId: string, payload: object) =>
  t.call({ method: 'POST', url: url(user, `/${ticketId}/attachments`), token: user.jwt, payload });

async function newTicket(user: User, title = 'Payout did not arrive', message = 'I withdrew 20 EUR on Monday.') {
  const created = await open(user, { title, message });
  expect(created.status).toBe(201);
  return created.body.data.id as string;
}

describe('support: tickets', () => {
  it('opens a ticket with its first message and lists it; the spec call with a title alone works too', async () => {
    const user = await signUp(t);
    expect((await list(user)).body.data).toEqual([]);
    const id = await newTicket(user);
    const titleOnly = await open(user, { title: 'Card order' });
    expect(titleOnly.status).toBe(201);

    const ticket = (await read(user, id)).body.data;
    expect(ticket).toMatchObject({ id, title: 'Payout did not arrive', status: 'open', attachments: [] });
    expect(ticket.messages).toEqual([expect.objectContaining({ author: 'user', message: 'I withdrew 20 EUR on Monday.' })]);
    expect((await read(user, titleOnly.body.data.id)).body.data.messages).toEqual([]);
    expect((await list(user)).body.data.map((x: { id: string }) => x.id)).toHaveLength(2);
  });

  it('applies spec 5: title needed and at most 100 characters; the message cut to 255; nothing stored on a refusal', async () => {
    const user = await signUp(t);
    const blank = await open(user, { title: '   ', message: 'hello' });
    expect(blank.status).toBe(422);
    expect(blank.body.validation_errors.title).toEqual(['This value should not be blank.']);
    const missing = await open(user, { message: 'hello' });
    expect(missing.status).toBe(422);
    const long = await open(user, { title: 'x'.repeat(101), message: 'hello' });
    expect(long.status).toBe(422);
    expect(long.body.validation_errors.title).toEqual(['This value is too long']);
    const blankMessage = await open(user, { title: 'Hi', message: ' ' });
    expect(blankMessage.status).toBe(422);
    expect(blankMessage.body.validation_errors.message).toEqual(['This value should not be blank.']);
    expect((await list(user)).body.data).toEqual([]);

    const id = await newTicket(user, 'y'.repeat(100), 'm'.repeat(300));
    expect((await read(user, id)).body.data.messages[0].message).toBe('m'.repeat(255));
    const replied = await reply(user, id, 'ā'.repeat(400));
    expect(replied.status).toBe(201);
    expect(replied.body.data.messages[1].message).toBe('ā'.repeat(255));
    const empty = await reply(user, id, '');
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual(['This value should not be blank.']);
  });

  it('lists the most recently active first', async () => {
    const user = await signUp(t);
    const first = await newTicket(user, 'First');
    t.clock.advance(60_000);
    const second = await newTicket(user, 'Second');
    t.clock.advance(60_000);
    expect((await list(user)).body.data.map((x: { id: string }) => x.id)).toEqual([second, first]);
    await reply(user, first, 'Any news?');
    const [top] = (await list(user)).body.data;
    expect(top).toMatchObject({ id: first, updated_at: t.clock.now().toISOString() });
  });

  it("answers 404 for another user's ticket, client or attachment, and changes nothing", async () => {
    const owner = await signUp(t);
    const other = await signUp(t);
    const id = await newTicket(owner);
    const file = await attach(owner, id, upload(await pdf, 'statement.pdf', 'application/pdf'));
    expect(file.status).toBe(201);

    expect((await read(other, id)).status).toBe(404);
    expect((await reply(other, id, 'mine now')).status).toBe(404);
    expect((await attach(other, id, upload(await pdf, 'x.pdf', 'application/pdf'))).status).toBe(404);
    const download = await t.call({
      method: 'GET',
      url: url(other, `/${id}/attachments/${file.body.data.id}`),
      token: other.jwt,
    });
    expect(download.status).toBe(404);
    // The owner's client id with the other user's token.
    expect((await t.call({ method: 'GET', url: url(owner), token: other.jwt })).status).toBe(404);
    expect(
      (await t.call({ method: 'POST', url: url(owner), token: other.jwt, payload: { title: 'x', message: 'y' } })).status,
    ).toBe(404);
    // An attachment id of another ticket through one's own ticket.
    const otherTicket = await newTicket(other);
    const crossed = await t.call({
      method: 'GET',
      url: url(other, `/${otherTicket}/attachments/${file.body.data.id}`),
      token: other.jwt,
    });
    expect(crossed.status).toBe(404);
    expect((await t.call({ method: 'GET', url: url(owner) })).status).toBe(401);

    const ticket = (await read(owner, id)).body.data;
    expect(ticket.messages).toHaveLength(1);
    expect(ticket.attachments).toHaveLength(1);
  });
});

describe('support: attachments', () => {
  it('stores a PDF byte for byte and serves it back to its owner under its name', async () => {
    const user = await signUp(t);
    const id = await newTicket(user);
    const bytes = await pdf;
    const added = await attach(user, id, upload(bytes, '../../Līgums "final".pdf', 'application/octet-stream'));
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({
      author: 'user',
      name: 'Līgums final.pdf',
      mime: 'application/pdf',
      size_bytes: bytes.length,
    });

    const download = await t.app.inject({
      method: 'GET',
      url: url(user, `/${id}/attachments/${added.body.data.id}`),
      headers: { authorization: `Bearer ${user.jwt}` },
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="L_gums_final.pdf"; filename*=UTF-8''${encodeURIComponent('Līgums final.pdf')}`,
    );
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(download.rawPayload.equals(bytes)).toBe(true);
    expect((await read(user, id)).body.data.attachments).toEqual([added.body.data]);

    // A right-to-left override would show `invoice\u202Efdp.exe` as `invoiceexe.pdf`: it is not kept.
    const disguised = await attach(user, id, upload(bytes, 'invoice\u202Efdp.exe', 'application/pdf'));
    expect(disguised.body.data.name).toBe('invoicefdp.exe');
    const served = await t.app.inject({
      method: 'GET',
      url: url(user, `/${id}/attachments/${disguised.body.data.id}`),
      headers: { authorization: `Bearer ${user.jwt}` },
    });
    expect(served.headers['content-disposition']).toBe(`attachment; filename="invoicefdp.exe"; filename*=UTF-8''invoicefdp.exe`);
  });

  it('takes an .edoc container and a PNG; types come from the bytes, not the name or mime given', async () => {
    const user = await signUp(t);
    const id = await newTicket(user);
    const signed = await attach(user, id, upload(await edoc(), 'contract.edoc', 'application/octet-stream'));
    expect(signed.status).toBe(201);
    expect(signed.body.data.mime).toBe('application/vnd.etsi.asic-e+zip');
    const image = await attach(user, id, upload(await png(), 'screenshot.jpg', 'image/jpeg'));
    expect(image.status).toBe(201);
    expect(image.body.data.mime).toBe('image/png');
  });

  it('refuses a renamed executable and a plain ZIP named .edoc, storing nothing', async () => {
    const user = await signUp(t);
    const id = await newTicket(user);
    const exe = Buffer.concat([
      Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff', 'latin1'),
      Buffer.alloc(2000, 7),
    ]);
    const renamed = await attach(user, id, upload(exe, 'invoice.pdf', 'application/pdf'));
    expect(renamed.status).toBe(422);
    expect(renamed.body).toMatchObject({ code: 'invalid_file', errors: ['This file type is not allowed'] });
    const container = await edoc();
    container.write('notatype', 30, 'latin1');
    const fake = await attach(user, id, upload(container, 'contract.edoc', 'application/octet-stream'));
    expect(fake.status).toBe(422);
    expect(
      await t.app.db
        .select()
        .from(supportAttachments)
        .innerJoin(supportTickets, eq(supportTickets.id, supportAttachments.ticketId))
        .where(eq(supportTickets.userId, user.userId)),
    ).toEqual([]);
  });

  it('refuses a PDF that runs JavaScript, alone or inside an .edoc (its own code), and any .edoc that is no signed container, storing nothing', async () => {
    const user = await signUp(t);
    const id = await newTicket(user);
    const alone = await attach(user, id, upload(javaScriptPdf(), 'statement.pdf', 'application/pdf'));
    expect(alone.status).toBe(422);
    expect(alone.body).toMatchObject({
      code: 'file_active_content',
      validation_errors: { content: ['This file contains scripts, links, actions or attached files, which are not allowed'] },
    });
    const inside = await attach(user, id, upload(await edoc(javaScriptPdf()), 'contract.edoc', 'application/octet-stream'));
    expect(inside.status).toBe(422);
    expect(inside.body.code).toBe('file_active_content');

    // Anything else behind an .edoc header: the rest garbage, no signature, an executable inside.
    const real = await edoc();
    const headerOnly = Buffer.concat([
      real.subarray(0, 30 + 'mimetype'.length + 31),
      Buffer.from('<script>alert(1)</script> and anything else'),
    ]);
    const unsigned = zip(
      [
        { name: 'mimetype', content: 'application/vnd.etsi.asic-e+zip', stored: true },
        { name: 'statement.pdf', content: await pdf },
      ],
      new Date(),
    );
    const exe = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00', 'latin1'), Buffer.alloc(500, 7)]);
    const program = zip(
      [
        { name: 'mimetype', content: 'application/vnd.etsi.asic-e+zip', stored: true },
        { name: 'statement.pdf.exe', content: exe },
        { name: 'META-INF/signatures0.xml', content: '<asic:XAdESSignatures/>' },
      ],
      new Date(),
    );
    for (const bytes of [headerOnly, unsigned, program]) {
      const refused = await attach(user, id, upload(bytes, 'contract.edoc', 'application/octet-stream'));
      expect(refused.status).toBe(422);
      expect(refused.body.code).toBe('invalid_file');
    }
    expect((await read(user, id)).body.data.attachments).toEqual([]);
  });

  it('re-encodes a PNG polyglot: what rides behind the image data is not stored', async () => {
    const user = await signUp(t);
    const id = await newTicket(user);
    const payload = '<script>alert(1)</script><?php system($_GET["c"]); ?>';
    const polyglot = Buffer.concat([await png(), Buffer.from(payload)]);
    const added = await attach(user, id, upload(polyglot, 'photo.png', 'image/png'));
    expect(added.status).toBe(201);
    const [row] = await t.app.db.select().from(supportAttachments).where(eq(supportAttachments.id, added.body.data.id));
    const [file] = await t.app.db.select().from(files).where(eq(files.id, row!.fileId));
    expect(Buffer.from(file!.content).includes(Buffer.from('<script>'))).toBe(false);
    expect((await sharp(Buffer.from(file!.content)).metadata()).format).toBe('png');
    // A file that only starts like a PNG is refused.
    const broken = Buffer.concat([(await png()).subarray(0, 40), Buffer.from(payload)]);
    expect((await attach(user, id, upload(broken, 'photo.png', 'image/png'))).status).toBe(422);
  });

  it('refuses 11 MB and takes 10 MB', async () => {
    const user = await signUp(t);
    const id = await newTicket(user);
    const base = await pdf;
    const big = Buffer.concat([base, Buffer.alloc(11 * 1024 * 1024 - base.length, 32)]);
    const refused = await attach(user, id, upload(big, 'big.pdf', 'application/pdf'));
    expect([413, 422]).toContain(refused.status);
    expect(refused.body.errors).toEqual(['File is too large']);
    const fits = Buffer.concat([base, Buffer.alloc(10 * 1024 * 1024 - base.length, 32)]);
    expect((await attach(user, id, upload(fits, 'fits.pdf', 'application/pdf'))).status).toBe(201);
  });

  it('takes seven files sent at once: every one stored, none lost to the race', async () => {
    const user = await signUp(t);
    const id = await newTicket(user);
    const bytes = await pdf;
    const answers = await Promise.all(
      Array.from({ length: 7 }, (_, i) => attach(user, id, upload(bytes, `page-${i + 1}.pdf`, 'application/pdf'))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(7).fill(201));
    const names = (await read(user, id)).body.data.attachments.map((a: { name: string }) => a.name).sort();
    expect(names).toEqual(Array.from({ length: 7 }, (_, i) => `page-${i + 1}.pdf`));
  });

  it('refuses content that is not base64', async () => {
    const user = await signUp(t);
    const id = await newTicket(user);
    const bad = await attach(user, id, { content: 'not base64!', name: 'a.pdf', mime: 'application/pdf' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.validation_errors)).toEqual(['content']);
  });
});

describe('support: operator replies, statuses and the badge', () => {
  const waiting = async (user: User) =>
    (await list(user)).body.data.filter((x: { status: string }) => x.status === 'waiting_for_user').length;

  it("sets waiting_for_user, texts the user the ticket's link, counts in the badge; the user's reply opens it again", async () => {
    const user = await signUp(t);
    const id = await newTicket(user);
    const other = await newTicket(user, 'Second question');
    await t.app.services.support.replyAsOperator(id, 'We have sent it again, it arrives tomorrow.');
    await t.app.services.support.replyAsOperator(other, 'Which card?');

    expect(await waiting(user)).toBe(2);
    expect(await t.app.services.support.waitingForUser(user.userId)).toBe(2);
    const ticket = (await read(user, id)).body.data;
    expect(ticket.status).toBe('waiting_for_user');
    expect(ticket.messages.map((m: { author: string }) => m.author)).toEqual(['user', 'operator']);
    const { body } = await t.call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(user.phone)}` });
    expect(body.data[0].body).toBe(`Tipcard support answered your question: ${t.app.config.publicUrl}/#/support/${other}`);
    expect(body.data[1].body).toContain(`/#/support/${id}`);

    await reply(user, id, 'Thanks, got it.');
    expect((await read(user, id)).body.data.status).toBe('open');
    expect(await waiting(user)).toBe(1);
    // An attachment is the user's answer too.
    await attach(user, other, upload(await pdf, 'card.pdf', 'application/pdf'));
    expect(await waiting(user)).toBe(0);
  });

  it("texts the reply's notice in the user's language, not the operator's", async () => {
    const user = await signUp(t);
    await chooseLanguage(t, user, 'fr');
    const id = await newTicket(user);
    await t.app.services.support.replyAsOperator(id, 'We have sent it again.');
    const { body } = await t.call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(user.phone)}` });
    expect(body.data[0].body).toBe(
      `L’assistance Tipcard a répondu à votre question\u00A0: ${t.app.config.publicUrl}/#/support/${id}`,
    );
  });

  it('refuses a blank operator reply and an unknown ticket', async () => {
    await expect(t.app.services.support.replyAsOperator(crypto.randomUUID(), 'Hello')).rejects.toMatchObject({
      code: 'not_found',
    });
    const user = await signUp(t);
    const id = await newTicket(user);
    await expect(t.app.services.support.replyAsOperator(id, '  ')).rejects.toMatchObject({ code: 'validation_failed' });
    expect((await read(user, id)).body.data.status).toBe('open');
  });

  it('a closed ticket takes no more messages or files from the user', async () => {
    const user = await signUp(t);
    const id = await newTicket(user);
    await t.app.db.update(supportTickets).set({ status: 'closed' }).where(eq(supportTickets.id, id));
    const refused = await reply(user, id, 'one more thing');
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'ticket_closed', errors: ['This ticket is closed, open a new one'] });
    expect((await attach(user, id, upload(await pdf, 'a.pdf', 'application/pdf'))).status).toBe(422);
    expect((await read(user, id)).body.data).toMatchObject({ status: 'closed', messages: [expect.anything()], attachments: [] });
  });

  it("an operator's reply racing the user's: the status always follows the message stored last", async () => {
    const user = await signUp(t);
    for (let round = 0; round < 5; round += 1) {
      const id = await newTicket(user, `Race ${round}`);
      await Promise.all([t.app.services.support.replyAsOperator(id, 'Operator here'), reply(user, id, 'User here')]);
      const ticket = (await read(user, id)).body.data;
      expect(ticket.messages).toHaveLength(3);
      const last = ticket.messages.at(-1).author;
      expect(ticket.status).toBe(last === 'operator' ? 'waiting_for_user' : 'open');
    }
  });
});

describe('support: the development reply route', () => {
  it('replies as an operator outside production', async () => {
    const user = await signUp(t);
    const id = await newTicket(user);
    const replied = await t.call({
      method: 'POST',
      url: `/api/dev/support/${id}/reply`,
      payload: { message: 'Hello from support' },
    });
    expect(replied.status).toBe(204);
    expect((await read(user, id)).body.data.status).toBe('waiting_for_user');
  });

  it('answers this machine only, as the dev outbox does', async () => {
    const user = await signUp(t);
    const id = await newTicket(user);
    const fromAfar = await t.app.inject({
      method: 'POST',
      url: `/api/dev/support/${id}/reply`,
      remoteAddress: '192.168.1.20',
      payload: { message: 'Not an operator' },
    });
    expect(fromAfar.statusCode).toBe(404);
    expect((await read(user, id)).body.data.status).toBe('open');
  });
});
