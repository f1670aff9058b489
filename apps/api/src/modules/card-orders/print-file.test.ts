import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jsqr from 'jsqr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';

/**
 * The print file read back as a print shop would: poppler's pdfinfo (page and trim boxes), pdftotext (the name) and
 * pdftoppm (the pages rendered), with the QR code on the rendered page decoded by jsQR.
 */
let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'https://tipcard.example' } });
  dir = mkdtempSync(join(tmpdir(), 'tipcard-print-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

/** jsqr is CommonJS with an ES-style default: TypeScript sees the module object where Node hands over the function. */
const jsQR = ((jsqr as unknown as { default?: unknown }).default ?? jsqr) as typeof jsqr.default;
const MM = 72 / 25.4;
const ADDRESS = {
  country: 'LV',
  city: 'Rīga',
  address: 'Brīvības iela 1',
  zip: 'LV-1010',
  first_name: 'Anna',
  last_name: 'Bērziņa',
};

/** A binary PPM (P6) as RGBA pixels, the form jsQR reads. */
function readPpm(file: string) {
  const bytes = readFileSync(file);
  const header = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(bytes.subarray(0, 50).toString('latin1'))!;
  const [width, height] = [Number(header[1]), Number(header[2])];
  const pixels = bytes.subarray(header[0].length);
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    rgba.set([pixels[i * 3]!, pixels[i * 3 + 1]!, pixels[i * 3 + 2]!, 255], i * 4);
  }
  return { width, height, rgba };
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
  const file = join(dir, `${product}-${placed.body.data.id}.pdf`);
  writeFileSync(file, preview.rawPayload);
  return { file, cardId: user.cardId };
}

const boxOf = (info: string, name: string) =>
  info
    .match(new RegExp(`Page\\s+1\\s+${name}:\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)`))!
    .slice(1)
    .map(Number);

describe('the print file', () => {
  for (const [product, width, height, quantity] of [
    ['card', 85.6, 54, 3],
    ['sticker', 50, 50, 2],
  ] as const) {
    it(`is a ${width} × ${height} mm ${product} with 3 mm bleed, one page per item, whose QR opens the card's payment page`, async () => {
      const { file, cardId } = await printFileOf(product, quantity);
      const info = execFileSync('pdfinfo', ['-box', '-f', '1', '-l', '1', file], { encoding: 'utf8' });
      expect(info).toMatch(new RegExp(`Pages:\\s+${quantity}\\n`));
      const media = boxOf(info, 'MediaBox');
      expect(media[2]! / MM).toBeCloseTo(width + 6, 1);
      expect(media[3]! / MM).toBeCloseTo(height + 6, 1);
      const trim = boxOf(info, 'TrimBox');
      expect(
        [trim[0]! / MM, trim[1]! / MM, (trim[2]! - trim[0]!) / MM, (trim[3]! - trim[1]!) / MM].map(
          (v) => Math.round(v * 10) / 10,
        ),
      ).toEqual([3, 3, width, height]);
      expect(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ')).toContain('Anna Bērziņa');

      execFileSync('pdftoppm', ['-r', '300', '-f', '1', '-l', '1', file, join(dir, `${product}-page`)]);
      const page = readdirSync(dir).find((name) => name.startsWith(`${product}-page`) && name.endsWith('.ppm'))!;
      const { width: w, height: h, rgba } = readPpm(join(dir, page));
      expect((w / 300) * 25.4).toBeCloseTo(width + 6, 0);
      expect((h / 300) * 25.4).toBeCloseTo(height + 6, 0);
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
    const file = join(dir, 'draft.pdf');
    writeFileSync(file, preview.rawPayload);
    expect(execFileSync('pdfinfo', [file], { encoding: 'utf8' })).toMatch(/Pages:\s+1\n/);
    const bad = await t.call({
      method: 'GET',
      url: `/api/clients/${user.clientId}/card-orders/preview?product=mug`,
      token: user.jwt,
    });
    expect(bad.status).toBe(422);
  });
});
