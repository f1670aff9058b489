import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseTrustProxy } from '../config.ts';
import { PRODUCTION_ENV } from '../test/production-env.ts';
import { createTestApp } from '../test/test-app.ts';

/** Six contact messages, each claiming another client address; the form allows five per address. */
async function contactFromRotatingAddresses(env: Record<string, string>) {
  const t = await createTestApp({ env });
  try {
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i += 1) {
      const response = await t.call({
        method: 'POST',
        url: '/api/contact',
        headers: { 'x-forwarded-for': `203.0.113.${i}` },
        payload: { name: 'Anna', email: 'anna@example.com', message: `Hello ${i}` },
      });
      statuses.push(response.status);
    }
    return statuses;
  } finally {
    await t.close();
  }
}

describe('TRUST_PROXY', () => {
  it('is off by default, in production too: X-Forwarded-For cannot step around a per-IP limit', async () => {
    expect(loadConfig(PRODUCTION_ENV).trustProxy).toBe(false);
    expect(await contactFromRotatingAddresses({})).toEqual([202, 202, 202, 202, 202, 429]);
  }, 120_000);

  it('trusts the hops it names, and then counts the forwarded address', async () => {
    expect(await contactFromRotatingAddresses({ TRUST_PROXY: '1' })).toEqual([202, 202, 202, 202, 202, 202]);
  }, 120_000);

  it('takes a number of hops or addresses and ranges, and refuses anything else at start', () => {
    expect(parseTrustProxy(undefined)).toEqual({ value: false });
    expect(parseTrustProxy('2')).toEqual({ value: 2 });
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1, ::1')).toEqual({ value: ['10.0.0.0/8', '127.0.0.1', '::1'] });
    for (const bad of ['true', 'everyone', '99', '10.0.0.0/8,evil']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(ConfigError);
    }
  });
});
