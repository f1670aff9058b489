import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import { PRODUCTION_ENV } from '../../test/production-env.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { t as text } from '../../lib/i18n.ts';

/** The pseudo-locale is for development and tests: its catalogs are served outside production only. */
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

  it('does not exist in production, whatever language the visitor asks for', async () => {
    const database = await createTestDatabase();
    const app = await buildApp(loadConfig({ ...PRODUCTION_ENV, LOG_LEVEL: 'silent' }), { database });
    try {
      const response = await app.inject({
        method: 'GET',
        url: '/api/dev/pseudo-catalogs',
        headers: { cookie: 'locale=pseudo', 'accept-language': 'pseudo' },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'not_found' });
    } finally {
      await app.close();
      await database.close();
    }
  });
});
