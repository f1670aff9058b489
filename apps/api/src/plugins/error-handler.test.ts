import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpWithCard, type TestApp } from '../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('what the router refuses', () => {
  it('answers a path parameter over 100 characters in the error format, without echoing it', async () => {
    const owner = await signUpWithCard(t);
    const long = 'x'.repeat(101);
    for (const url of [
      `/api/cards/${long}/qr_code`,
      `/api/public/cards/${long}`,
      `/api/clients/${long}/transactions`,
      `/api/payouts/${long}`,
    ]) {
      const response = await t.call({ method: 'GET', url, token: owner.jwt });
      expect(response.status, url).toBe(404);
      expect(response.body).toEqual({ message: 'Not found', code: 'not_found', errors: ['Not found'], validation_errors: {} });
    }
  });

  it('answers a malformed percent-encoding in the error format', async () => {
    const response = await t.call({ method: 'GET', url: '/api/public/cards/%E0%A4%A' });
    expect(response.status).toBeLessThan(500);
    expect(response.body).toMatchObject({ code: expect.any(String), errors: expect.any(Array) });
    expect(JSON.stringify(response.body)).not.toContain('%E0');
  });
});
