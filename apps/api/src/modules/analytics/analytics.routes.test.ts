import { desc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsEvents } from '../../db/schema/analytics.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('POST /api/analytics/events', () => {
  it('keeps a minimal event: name, path without its query, locale and the advert, nothing about the visitor', async () => {
    const response = await t.call({
      method: 'POST',
      url: '/api/analytics/events',
      headers: { 'user-agent': 'Mozilla/5.0 test' },
      payload: { name: 'ad_visit', path: '/lv/faq?advert=poster', locale: 'lv', promo_source: 'poster' },
    });
    expect(response.status).toBe(204);
    const [row] = await t.app.db.select().from(analyticsEvents).orderBy(desc(analyticsEvents.createdAt)).limit(1);
    expect(row).toMatchObject({ name: 'ad_visit', path: '/lv/faq', locale: 'lv', promoSource: 'poster' });
    expect(Object.keys(row!).sort()).toEqual(['createdAt', 'id', 'locale', 'name', 'path', 'promoSource']);
  });

  it('refuses unknown events with 422', async () => {
    const response = await t.call({
      method: 'POST',
      url: '/api/analytics/events',
      payload: { name: 'click', path: '/', locale: 'en' },
    });
    expect(response).toMatchObject({ status: 422, body: { code: 'validation_failed' } });
  });
});
