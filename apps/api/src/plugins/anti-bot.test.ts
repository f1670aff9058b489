import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';

/** A stand-in for Cloudflare's siteverify on 127.0.0.1: the token "human" passes, anything else fails. */
let verifier: Server;
let verifyUrl: string;
const received: URLSearchParams[] = [];
beforeAll(async () => {
  verifier = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const form = new URLSearchParams(body);
      received.push(form);
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ success: form.get('secret') === 'test-secret' && form.get('response') === 'human' }));
    });
  });
  await new Promise<void>((resolve) => verifier.listen(0, '127.0.0.1', resolve));
  verifyUrl = `http://127.0.0.1:${(verifier.address() as AddressInfo).port}/siteverify`;
});
afterAll(() => new Promise<void>((resolve) => verifier.close(() => resolve())));

const message = { name: 'Anna', email: 'anna@example.com', message: 'Hello' };

describe('the anti-bot check (requireHuman)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { TURNSTILE_SECRET: 'test-secret', TURNSTILE_SITE_KEY: 'site-key', TURNSTILE_VERIFY_URL: verifyUrl },
    });
  });
  afterAll(() => t.close());

  it('gives the web app the site key and allows the widget in the CSP', async () => {
    const site = await t.call({ method: 'GET', url: '/api/site' });
    expect(site.body.data.turnstile_site_key).toBe('site-key');
    expect(site.headers['content-security-policy']).toContain('https://challenges.cloudflare.com');
  });

  it('lets a request with a valid token through, from the header or the body, sending the secret and the IP', async () => {
    const byHeader = await t.call({
      method: 'POST',
      url: '/api/contact',
      remoteAddress: '10.1.1.1',
      headers: { 'cf-turnstile-response': 'human' },
      payload: message,
    });
    expect(byHeader.status).toBe(202);
    expect(received.at(-1)?.get('remoteip')).toBe('10.1.1.1');
    const byBody = await t.call({
      method: 'POST',
      url: '/api/contact',
      remoteAddress: '10.1.1.2',
      payload: { ...message, turnstile_token: 'human' },
    });
    expect(byBody.status).toBe(202);
  });

  it('refuses a failing token and a missing token with 403', async () => {
    const failing = await t.call({
      method: 'POST',
      url: '/api/contact',
      remoteAddress: '10.1.1.3',
      payload: { ...message, turnstile_token: 'robot' },
    });
    expect(failing).toMatchObject({ status: 403, body: { code: 'bot_check_failed' } });
    const missing = await t.call({ method: 'POST', url: '/api/contact', remoteAddress: '10.1.1.4', payload: message });
    expect(missing).toMatchObject({ status: 403, body: { code: 'bot_check_failed' } });
  });

  it('fails closed when the verifier cannot be reached', async () => {
    const unreachable = await createTestApp({
      env: {
        TURNSTILE_SECRET: 'test-secret',
        TURNSTILE_SITE_KEY: 'site-key',
        TURNSTILE_VERIFY_URL: 'http://127.0.0.1:9/siteverify',
      },
    });
    try {
      const response = await unreachable.call({
        method: 'POST',
        url: '/api/contact',
        payload: { ...message, turnstile_token: 'human' },
      });
      expect(response.status).toBe(403);
    } finally {
      await unreachable.close();
    }
  });
});

describe('without TURNSTILE_SECRET', () => {
  it('is a no-op: no token needed, no site key given', async () => {
    const t = await createTestApp();
    try {
      expect((await t.call({ method: 'GET', url: '/api/site' })).body.data.turnstile_site_key).toBeNull();
      expect((await t.call({ method: 'POST', url: '/api/contact', payload: message })).status).toBe(202);
    } finally {
      await t.close();
    }
  });
});
