import { randomBytes } from 'node:crypto';
import { count } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '@tipcard/shared/constants';
import { files } from '../../db/schema/files.ts';
import { createTestApp, signUp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type User = Awaited<ReturnType<typeof signUp>>;
const cardBody = { title: 'Main', public_name: 'Anna', activity_type: 'WAITER', country: 'LV' };

async function userWithCard() {
  const user = await signUp(t);
  const created = await t.call({
    method: 'POST',
    url: `/api/clients/${user.clientId}/cards`,
    token: user.jwt,
    payload: cardBody,
  });
  return { user, card: created.body.data };
}

const upload = (user: User, cardId: string, bytes: Buffer | string, meta = { name: 'me.png', mime: 'image/png' }) =>
  t.call({
    method: 'POST',
    url: `/api/cards/${cardId}/photo`,
    token: user.jwt,
    payload: { content: typeof bytes === 'string' ? bytes : bytes.toString('base64'), ...meta },
  });
const cardsOf = async (user: User) =>
  (await t.call({ method: 'GET', url: `/api/clients/${user.clientId}/cards`, token: user.jwt })).body.data;
const fileCount = async () => (await t.app.db.select({ n: count() }).from(files))[0]!.n;
const fetchPhoto = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers }).then((response) => ({
    status: response.statusCode,
    headers: response.headers,
    bytes: response.rawPayload,
  }));

/** A PNG with a gradient, bigger than the stored size. */
const makePng = (width = 1600, height = 1200) =>
  sharp({ create: { width, height, channels: 4, background: { r: 200, g: 30, b: 60, alpha: 0.5 } } })
    .png()
    .toBuffer();
/** A camera-like JPEG: landscape pixels with EXIF orientation 6 (shown portrait), a copyright note and GPS-ish text. */
const makeJpegWithExif = () =>
  sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#3366cc' } })
    .jpeg()
    .withExif({ IFD0: { Copyright: 'Secret Owner', ImageDescription: 'home address 56.9496 24.1052' } })
    .withMetadata({ orientation: 6 })
    .toBuffer();

describe('card photo', () => {
  it('accepts a PNG, stores it re-encoded and serves it publicly', async () => {
    const { user, card } = await userWithCard();
    const answer = await upload(user, card.id, await makePng());
    expect(answer.status).toBe(200);
    const updated = answer.body.data;
    expect(updated.image_url).toMatch(new RegExp(`^/api/cards/${card.id}/photo\\?v=[0-9a-f-]{36}$`));
    expect(await cardsOf(user)).toEqual([updated]);

    const me = await t.call({ method: 'GET', url: '/api/me', token: user.jwt });
    expect(me.body.data.photo).toBe(updated.image_url);

    // Public: no token.
    const photo = await fetchPhoto(updated.image_url);
    expect(photo.status).toBe(200);
    expect(photo.headers['content-type']).toBe('image/jpeg');
    expect(photo.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(photo.headers['x-content-type-options']).toBe('nosniff');
    expect(photo.headers['content-disposition']).toBe(`attachment; filename="card-photo.jpg"; filename*=UTF-8''card-photo.jpg`);
    expect(photo.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    const meta = await sharp(photo.bytes).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 1024, height: 768 });

    // Without the version the answer may change, so it is not cached for ever.
    const unversioned = await fetchPhoto(`/api/cards/${card.id}/photo`);
    expect(unversioned.status).toBe(200);
    expect(unversioned.headers['cache-control']).toBe('no-cache');
    const revalidated = await fetchPhoto(`/api/cards/${card.id}/photo`, { 'if-none-match': String(unversioned.headers.etag) });
    expect(revalidated.status).toBe(304);
  });

  it('turns a JPEG upright per EXIF and strips every piece of metadata', async () => {
    const { user, card } = await userWithCard();
    const input = await makeJpegWithExif();
    expect((await sharp(input).metadata()).exif).toBeDefined();
    const answer = await upload(user, card.id, input, { name: 'IMG_0001.JPG', mime: 'image/jpeg' });
    expect(answer.status).toBe(200);
    const photo = await fetchPhoto(answer.body.data.image_url);
    expect(photo.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(photo.bytes).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(photo.bytes.includes(Buffer.from('Secret Owner'))).toBe(false);
    // 1600×1200 turned by 90° and fitted into 1024×1024.
    expect(meta).toMatchObject({ width: 768, height: 1024 });
  });

  it('never enlarges a small photo', async () => {
    const { user, card } = await userWithCard();
    const answer = await upload(user, card.id, await makePng(200, 100));
    const meta = await sharp((await fetchPhoto(answer.body.data.image_url)).bytes).metadata();
    expect(meta).toMatchObject({ width: 200, height: 100 });
  });

  it('serves the avatar variant fitted into 192 px, cached for ever under its own tag, never enlarged', async () => {
    const { user, card } = await userWithCard();
    const { image_url: imageUrl } = (await upload(user, card.id, await makePng())).body.data;
    const full = await fetchPhoto(imageUrl);
    const avatar = await fetchPhoto(`${imageUrl}&size=avatar`);
    expect(avatar.status).toBe(200);
    expect(avatar.headers['content-type']).toBe('image/jpeg');
    expect(avatar.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(avatar.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(await sharp(avatar.bytes).metadata()).toMatchObject({ format: 'jpeg', width: 192, height: 144 });
    expect(avatar.bytes.length).toBeLessThan(full.bytes.length / 4);
    expect(avatar.headers.etag).not.toBe(full.headers.etag);
    // Asked again (from the process's cache): the same bytes; a client that has them gets a 304.
    expect((await fetchPhoto(`${imageUrl}&size=avatar`)).bytes.equals(avatar.bytes)).toBe(true);
    const revalidated = await fetchPhoto(`${imageUrl}&size=avatar`, { 'if-none-match': String(avatar.headers.etag) });
    expect(revalidated.status).toBe(304);
    expect((await fetchPhoto(imageUrl, { 'if-none-match': String(avatar.headers.etag) })).status).toBe(200);

    const small = (await upload(user, card.id, await makePng(120, 90))).body.data.image_url;
    expect(await sharp((await fetchPhoto(`${small}&size=avatar`)).bytes).metadata()).toMatchObject({ width: 120, height: 90 });

    const unknownSize = await t.call({ method: 'GET', url: `${imageUrl}&size=huge` });
    expect(unknownSize.status).toBe(422);
    expect(unknownSize.body).toMatchObject({ code: 'validation_failed' });
  });

  it('replaces the old file and deletes it with DELETE, leaving no file behind', async () => {
    const { user, card } = await userWithCard();
    const filesBefore = await fileCount();
    const first = (await upload(user, card.id, await makePng())).body.data;
    const second = (await upload(user, card.id, await makePng(300, 300))).body.data;
    expect(second.image_url).not.toBe(first.image_url);
    expect(await fileCount()).toBe(filesBefore + 1);
    expect((await fetchPhoto(first.image_url)).headers['cache-control']).toBe('no-cache');

    const removed = await t.call({ method: 'DELETE', url: `/api/cards/${card.id}/photo`, token: user.jwt });
    expect(removed.status).toBe(200);
    expect(removed.body.data).toMatchObject({ id: card.id, image_url: null });
    expect(await fileCount()).toBe(filesBefore);
    const gone = await t.call({ method: 'GET', url: second.image_url });
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ code: 'not_found', errors: ['Not found'] });

    // Deleting again is harmless.
    const again = await t.call({ method: 'DELETE', url: `/api/cards/${card.id}/photo`, token: user.jwt });
    expect(again.status).toBe(200);
    expect(again.body.data.image_url).toBeNull();
  });

  it('keeps one file when two uploads race', async () => {
    const { user, card } = await userWithCard();
    const filesBefore = await fileCount();
    const [a, b] = await Promise.all([
      upload(user, card.id, await makePng(300, 200)),
      upload(user, card.id, await makePng(200, 300)),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await fileCount()).toBe(filesBefore + 1);
    const [current] = await cardsOf(user);
    expect((await fetchPhoto(current.image_url)).status).toBe(200);
  });

  it('answers 404 JSON for a card without photo, an unknown card and a malformed id', async () => {
    const { card } = await userWithCard();
    for (const url of [
      `/api/cards/${card.id}/photo`,
      '/api/cards/00000000-0000-4000-8000-000000000000/photo',
      '/api/cards/nope/photo',
    ]) {
      const answer = await t.call({ method: 'GET', url });
      expect(answer.status, url).toBe(404);
      expect(answer.body).toEqual({ message: 'Not found', code: 'not_found', errors: ['Not found'], validation_errors: {} });
    }
  });

  describe('refuses what is not a JPEG or PNG photo, and stores nothing', () => {
    let user: User;
    let card: any;
    let filesBefore: number;
    beforeAll(async () => {
      ({ user, card } = await userWithCard());
      filesBefore = await fileCount();
    });
    const expectNothingStored = async () => {
      expect((await cardsOf(user))[0].image_url).toBeNull();
      expect(await fileCount()).toBe(filesBefore);
    };

    it('a PDF declared as image/png', async () => {
      const pdf = Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
      const answer = await upload(user, card.id, pdf, { name: 'photo.png', mime: 'image/png' });
      expect(answer.status).toBe(422);
      expect(answer.body).toEqual({
        message: 'This file type is not allowed',
        code: 'invalid_file',
        errors: ['This file type is not allowed'],
        validation_errors: {},
      });
      await expectNothingStored();
    });

    it('an HTML file renamed .png, a GIF, an SVG and random bytes', async () => {
      const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
        .gif()
        .toBuffer();
      for (const bytes of [
        Buffer.from('<!doctype html><html><script>alert(1)</script></html>'),
        gif,
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        randomBytes(4096),
      ]) {
        const answer = await upload(user, card.id, bytes);
        expect(answer.status).toBe(422);
        expect(answer.body.code).toBe('invalid_file');
      }
      await expectNothingStored();
    });

    it('a corrupt PNG and a truncated JPEG that do not decode', async () => {
      const png = await makePng(400, 400);
      const corrupt = Buffer.concat([png.subarray(0, 33), randomBytes(2000)]);
      const jpeg = await makeJpegWithExif();
      for (const bytes of [corrupt, jpeg.subarray(0, 200)]) {
        const answer = await upload(user, card.id, bytes);
        expect(answer.status).toBe(422);
        expect(answer.body.code).toBe('invalid_file');
      }
      await expectNothingStored();
    });

    it('content that is not strict base64', async () => {
      for (const content of ['not base64!', 'iVBORw0KGgo', 'iVBO Rw0K', 'data:image/png;base64,iVBORw0KGgo=', '====', '%%%%']) {
        const answer = await upload(user, card.id, content);
        expect(answer.status, content).toBe(422);
        expect(answer.body).toMatchObject({ code: 'validation_failed', validation_errors: { content: ['Enter valid data'] } });
      }
      await expectNothingStored();
    });

    it('missing or blank fields', async () => {
      for (const payload of [
        {},
        { content: '', name: 'a.png', mime: 'image/png' },
        { content: 'iVBORw0KGgo=', name: ' ', mime: 'image/png' },
      ]) {
        const answer = await t.call({ method: 'POST', url: `/api/cards/${card.id}/photo`, token: user.jwt, payload });
        expect(answer.status).toBe(422);
        expect(answer.body.code).toBe('validation_failed');
        expect(Object.values(answer.body.validation_errors).flat()).toContain('This value should not be blank.');
      }
      await expectNothingStored();
    });

    it('more than 10 MB is 413 "File is too large"', async () => {
      const big = Buffer.alloc(MAX_UPLOAD_BYTES + 1);
      (await makePng(10, 10)).copy(big);
      const answer = await upload(user, card.id, big);
      expect(answer.status).toBe(413);
      expect(answer.body).toMatchObject({
        code: 'payload_too_large',
        message: 'File is too large',
        errors: ['File is too large'],
      });
      // A body beyond the limit is refused before it is parsed, with the same answer.
      const huge = await upload(user, card.id, 'A'.repeat(15_000_000));
      expect(huge.status).toBe(413);
      expect(huge.body).toMatchObject({ code: 'payload_too_large', message: 'File is too large' });
      await expectNothingStored();
    });
  });

  it('limits uploads to 20 a minute per user', async () => {
    const { user, card } = await userWithCard();
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await upload(user, card.id, randomBytes(64))).status);
    expect(statuses.slice(0, 20).every((status) => status === 422)).toBe(true);
    expect(statuses[20]).toBe(429);
    // Another user is not affected.
    const other = await userWithCard();
    expect((await upload(other.user, other.card.id, await makePng(50, 50))).status).toBe(200);
  });
});
