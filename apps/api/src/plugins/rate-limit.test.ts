import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { PRODUCTION_ENV } from '../test/production-env.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../test/test-app.ts';

const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig(env, { jwtSecret: 'x'.repeat(40) });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.join('\n');
    throw error;
  }
  return '';
};

describe('RATE_LIMITS', () => {
  it('is on by default, may be turned off outside production, and is refused off in production', () => {
    expect(loadConfig({}, { jwtSecret: 'x'.repeat(40) }).rateLimitsEnabled).toBe(true);
    expect(loadConfig({ RATE_LIMITS: 'off' }, { jwtSecret: 'x'.repeat(40) }).rateLimitsEnabled).toBe(false);
    expect(problemsOf(PRODUCTION_ENV)).toBe('');
    expect(problemsOf({ ...PRODUCTION_ENV, RATE_LIMITS: 'off' })).toContain('RATE_LIMITS: cannot be off in production');
    expect(problemsOf({ RATE_LIMITS: 'no' })).toContain('RATE_LIMITS');
  });
});

describe('RATE_LIMIT_NAMESPACE', () => {
  it('prefixes the counters, tipcard-rl: by default, and refuses a prefix with spaces', () => {
    expect(loadConfig({}, { jwtSecret: 'x'.repeat(40) }).rateLimitNamespace).toBe('tipcard-rl:');
    expect(loadConfig({ RATE_LIMIT_NAMESPACE: 'e2e-w1:' }, { jwtSecret: 'x'.repeat(40) }).rateLimitNamespace).toBe('e2e-w1:');
    expect(problemsOf({ RATE_LIMIT_NAMESPACE: 'a b' })).toContain('RATE_LIMIT_NAMESPACE');
  });
});

describe('rate limits turned off for a benchmark run', () => {
  let on: TestApp;
  let off: TestApp;
  beforeAll(async () => {
    [on, off] = await Promise.all([
      createTestApp(),
      createTestApp({ env: { RATE_LIMITS: 'off', CHECKOUTS_GLOBAL_PER_MINUTE: '2' } }),
    ]);
  });
  afterAll(() => Promise.all([on.close(), off.close()]));

  it('lets every request through: the per-address hooks and the global checkout counter', async () => {
    const { cardId } = await signUpWithCard(off);
    // 120 per minute per address on the public card read; the checkouts' global counter is 2 per minute here.
    for (let i = 0; i < 130; i += 1) {
      expect((await off.call({ method: 'GET', url: `/api/public/cards/${cardId}`, remoteAddress: '10.9.9.9' })).status).toBe(200);
    }
    for (let i = 0; i < 4; i += 1) {
      const tip = await off.call({
        method: 'POST',
        url: `/api/public/cards/${cardId}/payments`,
        headers: { 'idempotency-key': crypto.randomUUID() },
        payload: { amount_cents: 500, cover_fee: false, terms_accepted: true },
        remoteAddress: '10.9.9.9',
      });
      expect(tip.status).toBe(201);
    }
  });

  it('keeps the OpenAPI document the same, 429 still documented where a limit applies', () => {
    expect(off.app.swagger()).toEqual(on.app.swagger());
    const read = (off.app.swagger() as { paths: Record<string, { get: { responses: Record<string, unknown> } }> }).paths[
      '/api/public/cards/{cardId}'
    ];
    expect(read?.get.responses['429']).toBeDefined();
  });
});
