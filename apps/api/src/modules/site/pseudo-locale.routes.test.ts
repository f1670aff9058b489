import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { t as text } from '../../lib/i18n.ts';

/** The pseudo-locale is for development and tests: its catalogs are served outside production only (app.test.ts). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/dev/pseudo-catalogs', () => {
  it('answers every namespace of English, each text bracketed and placeholders kept, outside production', async () => {
    const response = await t.call({ method: 'GET', url: '/api/dev/pseudo-catalogs' });
    expect(response.status).toBe(200);
    const catalogs = response.body.data as Record<string, Record<string, unknown>>;
    expect(Object.keys(catalogs)).toEqual(expect.arrayContaining(['common', 'payment', 'overview', 'legal', 'marketing']));
    const english = text('payment:form.message_left', { remaining: '{{remaining}}' }, 'en');
    const pseudo = (catalogs.payment!.form as Record<string, string>).message_left!;
    expect(pseudo).toMatch(/^\[.*\{\{remaining\}\}·+\]$/);
    expect(pseudo).not.toContain(english.split(':')[0]);
  });
});
