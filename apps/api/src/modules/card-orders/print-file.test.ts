import jsqr from 'jsqr';
import sharp from 'sharp';
import { getDocumentProxy, renderPageAsImage } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOfPdf } from '../../test/pdf.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';

/**
 * The print file read back as a print shop would: its page boxes, its text (the name) and its first page rendered at
 * 300 dpi, with the QR code on the rendered page decoded by jsQR. pdf.js (through unpdf, drawing on @napi-rs/canvas)
 * reads and renders it, so the test needs nothing outside npm.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'https://tipcard.example' } });
});
afterAll(() => t.close());

/** jsqr is CommonJS with an ES-style default: TypeScript sees the module object where Node hands over the function. */
const jsQR = ((jsqr as unknown as { default?: unknown }).default ?? jsqr) as typeof jsqr.default;
const MM = 72 / 25.4;
const DPI = 300;
const ADDRESS = {
  country: 'LV',
  city: 'Rīga',
  address: 'Brīvības iela 1',
  zip: 'LV-1010',
  first_name: 'Anna',
  last_name: 'Bērziņa',
};

/** A PDF opened by pdf.js; a copy of the bytes, as pdf.js may take over (detach) the buffer it is handed. */
const openPdf = (bytes: Buffer) => getDocumentProxy(new Uint8Array(bytes));

/**
 * A box of a page as the page's dictionary states it, in points. pdf.js finds the page's object but shows only the
 * visible box (`view`), never the TrimBox, and does not export its parser of objects; so the box is read from that
 * object in the bytes, which pdfkit writes uncompressed (only content streams are deflated).
 */
function boxOf(bytes: Buffer, page: { num: number; gen: number }, name: 'MediaBox' | 'TrimBox') {
  const object = new RegExp(`(?<!\\d)${page.num} ${page.gen} obj\\s*<<([\\s\\S]*?)>>\\s*endobj`).exec(bytes.toString('latin1'))!;
  return new RegExp(`/${name}\\s*\\[([^\\]]*)\\]`).exec(object[1]!)![1]!.trim().split(/\s+/).map(Number);
}

/**
 * pdf.js 5 hands each font over with ArrayBuffer.prototype.transferToFixedLength, which Node has only from 21; unpdf's
 * build fills in the other newer built-ins it uses, not this one. On Node 20 (the engines' floor) the page would be
 * drawn without its text and without all that is drawn after the text, the card's QR code among it. A copy of the
 * bytes is what the method returns (it also detaches the original, which pdf.js does not rely on).
 */
if (!('transferToFixedLength' in ArrayBuffer.prototype)) {
  Object.defineProperty(ArrayBuffer.prototype, 'transferToFixedLength', {
    configurable: true,
    writable: true,
    value(this: ArrayBuffer, length = this.byteLength) {
      const copy = new Uint8Array(length);
      copy.set(new Uint8Array(this, 0, Math.min(length, this.byteLength)));
      return copy.buffer;
    },
  });
}

/** The first page drawn at the given resolution, as RGBA pixels (the form jsQR reads). */
async function renderFirstPage(bytes: Buffer, dpi: number) {
  const png = await renderPageAsImage(new Uint8Array(bytes), 1, {
    canvasImport: () => import('@napi-rs/canvas'),
    scale: dpi / 72,
  });
  const { data, info } = await sharp(Buffer.from(png)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, rgba: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length) };
}

async function printFileOf(product: 'card' | 'sticker', quantity: number) {
  const user = await signUpWithCard(t, { public_name: 'Anna Bērziņa' });
  const placed = await t.call({
    method: 'POST',
    url: `/api/clients/${user.clientId}/card-orders`,
    token: user.jwt,
    payload: { product, quantity, ...ADDRESS },
  });
  expect(placed.status).toBe(201);
  const preview = await t.app.inject({
    method: 'GET',
    url: `/api/clients/${user.clientId}/card-orders/${placed.body.data.id}/preview`,
    headers: { authorization: `Bearer ${user.jwt}` },
  });
  expect(preview.statusCode).toBe(200);
  expect(preview.headers['content-type']).toBe('application/pdf');
  // The back office's file is the same file.
  expect((await t.app.services.cardOrders.printFile(placed.body.data.id)).subarray(0, 5).toString()).toBe('%PDF-');
  return { bytes: preview.rawPayload, cardId: user.cardId };
}

describe('the print file', () => {
  for (const [product, width, height, quantity] of [
    ['card', 85.6, 54, 3],
    ['sticker', 50, 50, 2],
  ] as const) {
    it(`is a ${width} × ${height} mm ${product} with 3 mm bleed, one page per item, whose QR opens the card's payment page`, async () => {
      const { bytes, cardId } = await printFileOf(product, quantity);
      const pdf = await openPdf(bytes);
      expect(pdf.numPages).toBe(quantity);
      const firstPage = (await pdf.getPage(1)).ref!;
      await pdf.destroy();
      const media = boxOf(bytes, firstPage, 'MediaBox');
      expect(media[2]! / MM).toBeCloseTo(width + 6, 1);
      expect(media[3]! / MM).toBeCloseTo(height + 6, 1);
      const trim = boxOf(bytes, firstPage, 'TrimBox');
      expect(
        [trim[0]! / MM, trim[1]! / MM, (trim[2]! - trim[0]!) / MM, (trim[3]! - trim[1]!) / MM].map(
          (v) => Math.round(v * 10) / 10,
        ),
      ).toEqual([3, 3, width, height]);
      expect(await textOfPdf(bytes)).toContain('Anna Bērziņa');

      const { width: w, height: h, rgba } = await renderFirstPage(bytes, DPI);
      expect((w / DPI) * 25.4).toBeCloseTo(width + 6, 0);
      expect((h / DPI) * 25.4).toBeCloseTo(height + 6, 0);
      expect(jsQR(rgba, w, h)?.data).toBe(`https://tipcard.example/payment/${cardId}`);
    });
  }

  it('previews a product before ordering, as the same kind of file', async () => {
    const user = await signUpWithCard(t);
    const preview = await t.app.inject({
      method: 'GET',
      url: `/api/clients/${user.clientId}/card-orders/preview?product=sticker`,
      headers: { authorization: `Bearer ${user.jwt}` },
    });
    expect(preview.statusCode).toBe(200);
    const pdf = await openPdf(preview.rawPayload);
    expect(pdf.numPages).toBe(1);
    await pdf.destroy();
    const bad = await t.call({
      method: 'GET',
      url: `/api/clients/${user.clientId}/card-orders/preview?product=mug`,
      token: user.jwt,
    });
    expect(bad.status).toBe(422);
  });
});
