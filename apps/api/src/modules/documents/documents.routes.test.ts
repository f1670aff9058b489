import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOfPdf } from '../../test/pdf.ts';
import { formatMoney } from '@tipcard/shared/money/format';
import { createTestApp, signUp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { COMPANY_NAME: 'Example Payments SIA', FEE_PERCENT: '4.5' } });
});
afterAll(() => t.close());

async function pdfText(body: unknown): Promise<string> {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(String(body), 'binary');
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  return textOfPdf(bytes);
}

const getPdf = async (url: string, token?: string) => {
  const response = await t.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: response.statusCode, type: response.headers['content-type'], body: response.rawPayload };
};

describe('the printable documents', () => {
  it('serve the tariff in every language with the configured fee and company', async () => {
    const en = await getPdf('/docs/tariff-en.pdf');
    expect(en.status).toBe(200);
    expect(en.type).toBe('application/pdf');
    const text = await pdfText(en.body);
    for (const expected of [
      'Tariffs',
      'Up to 4.5% of the amount',
      '€2 per payout',
      '€3',
      'Closing payout',
      'Example Payments SIA',
    ])
      expect(text).toContain(expected);
    for (const locale of ['lv', 'fr', 'es']) expect((await getPdf(`/docs/tariff-${locale}.pdf`)).status).toBe(200);
    const lv = await pdfText((await getPdf('/docs/tariff-lv.pdf')).body);
    expect(lv).toContain('Tarifi');
    // The verification limit is an amount of the reader's language, not "1000 EUR".
    expect(lv).toContain(formatMoney(t.app.config.verificationLimitCents, 'lv'));
  });

  it('serve the agent sheets in English and in Latvian, with Latvian letters intact', async () => {
    expect(await pdfText((await getPdf('/docs/agents-en.pdf')).body)).toContain('Cashless tips for your team');
    const lv = await pdfText((await getPdf('/docs/agents-lv.pdf')).body);
    expect(lv).toContain('Bezskaidras naudas dzeramnauda jūsu komandai');
    expect(lv).toContain('Skaistumkopšana');
    expect((await getPdf('/docs/agents-fr.pdf')).status).toBe(404);
  });
});

describe('GET /api/cards/{id}/print.pdf', () => {
  it("is the owner's card with its public name and the instruction in the chosen language; 404 for anyone else", async () => {
    const owner = await signUp(t);
    const created = await t.call({
      method: 'POST',
      url: `/api/clients/${owner.clientId}/cards`,
      token: owner.jwt,
      payload: { title: 'Bārs “Rīts”', public_name: 'Jānis Ķēniņš', activity_type: 'WAITER', country: 'LV' },
    });
    const cardId = created.body.data.id;

    const pdf = await getPdf(`/api/cards/${cardId}/print.pdf?locale=lv`, owner.jwt);
    expect(pdf.status).toBe(200);
    const text = await pdfText(pdf.body);
    expect(text).toContain('Jānis Ķēniņš');
    expect(text).toContain('Noskenējiet, lai atstātu dzeramnaudu');

    const stranger = await signUp(t);
    expect((await getPdf(`/api/cards/${cardId}/print.pdf`, stranger.jwt)).status).toBe(404);
    expect((await getPdf(`/api/cards/${cardId}/print.pdf`)).status).toBe(401);
    expect((await getPdf('/api/cards/not-a-uuid/print.pdf', owner.jwt)).status).toBe(404);
  });
});
