import { describe, expect, it } from 'vitest';
import { isLoopback } from '../../lib/loopback.ts';
import { createTestApp, signUp } from '../../test/test-app.ts';
import { devOutboxWarning } from './outbox.routes.ts';

describe('the dev outbox', () => {
  it('answers this machine only, whatever X-Forwarded-For says, unless DEV_OUTBOX_PUBLIC=1', async () => {
    const t = await createTestApp({ env: { TRUST_PROXY: '1' } });
    try {
      const user = await signUp(t);
      const ask = (remoteAddress: string, headers: Record<string, string> = {}) =>
        t.app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(user.phone)}`, remoteAddress, headers });
      for (const local of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) expect((await ask(local)).statusCode).toBe(200);
      for (const remote of ['192.168.1.20', '10.0.0.7', '2001:db8::1']) {
        const answer = await ask(remote, { 'x-forwarded-for': '127.0.0.1' });
        expect(answer.statusCode).toBe(404);
        expect(answer.json()).toMatchObject({ code: 'not_found' });
        expect(answer.body).not.toContain(user.phone);
      }
    } finally {
      await t.close();
    }
    const open = await createTestApp({ env: { DEV_OUTBOX_PUBLIC: '1' } });
    try {
      expect((await open.app.inject({ method: 'GET', url: '/api/dev/outbox', remoteAddress: '192.168.1.20' })).statusCode).toBe(
        200,
      );
    } finally {
      await open.close();
    }
  }, 120_000);

  it('warns at start when a development server listens beyond loopback', () => {
    expect(devOutboxWarning({ devOutbox: true, devOutboxPublic: false, host: '127.0.0.1' })).toBeUndefined();
    expect(devOutboxWarning({ devOutbox: true, devOutboxPublic: false, host: 'localhost' })).toBeUndefined();
    expect(devOutboxWarning({ devOutbox: false, devOutboxPublic: false, host: '0.0.0.0' })).toBeUndefined();
    expect(devOutboxWarning({ devOutbox: true, devOutboxPublic: false, host: '0.0.0.0' })).toContain(
      'only requests from this machine',
    );
    expect(devOutboxWarning({ devOutbox: true, devOutboxPublic: true, host: '::' })).toContain('anyone who reaches it');
    expect(isLoopback('[::1]')).toBe(true);
    expect(isLoopback('127.0.0.1.evil')).toBe(false);
  });
});
