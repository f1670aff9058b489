import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { vapidKeyPair } from './test/fake-push-service.ts';

const keys = vapidKeyPair();
const load = (env: Record<string, string>) => loadConfig(env, { jwtSecret: 'x'.repeat(40) });
const problemsOf = (env: Record<string, string>) => {
  try {
    load(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('Web Push configuration (decision 0046)', () => {
  it('takes the three VAPID variables together', () => {
    const config = load({
      NODE_ENV: 'production',
      JWT_SECRET: 'x'.repeat(40),
      COMPANY_NAME: 'Tipcard SIA',
      COMPANY_REGISTRATION_NUMBER: '1',
      COMPANY_ADDRESS: 'Rīga',
      SUPPORT_EMAIL: 'help@tipcard.test',
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: 'AC1',
      TWILIO_AUTH_TOKEN: 't',
      TWILIO_FROM: '+37120000000',
      SANDBOX_PAYMENTS: '1',
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: 'mailto:ops@tipcard.test',
    });
    expect(config.push).toEqual({
      publicKey: keys.publicKey,
      privateKey: keys.privateKey,
      subject: 'mailto:ops@tipcard.test',
      allowLoopbackEndpoints: false,
    });
  });

  it('fails fast, naming each missing one, on half a set', () => {
    expect(problemsOf({ VAPID_PUBLIC_KEY: keys.publicKey })).toEqual([
      'VAPID_PRIVATE_KEY: is required with the other VAPID_* variables',
      'VAPID_SUBJECT: is required with the other VAPID_* variables',
    ]);
  });

  it('refuses keys and subjects of the wrong form', () => {
    const problems = problemsOf({
      VAPID_PUBLIC_KEY: 'not-a-key',
      VAPID_PRIVATE_KEY: keys.publicKey,
      VAPID_SUBJECT: 'http://tipcard.test',
    });
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(/VAPID_PUBLIC_KEY: must be a P-256 public key/);
    expect(problems.join('\n')).toMatch(/VAPID_SUBJECT: must be a mailto: address or an https:\/\/ link/);
  });

  it('in development without them, generates a sandbox pair once and keeps it in DATA_DIR', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tipcard-vapid-'));
    const first = load({ NODE_ENV: 'development', DATA_DIR: dataDir }).push!;
    expect(first.publicKey).toMatch(/^[\w-]{87}$/);
    expect(first.privateKey).toMatch(/^[\w-]{43}$/);
    expect(first.allowLoopbackEndpoints).toBe(true);
    expect(statSync(join(dataDir, 'vapid-keys.json')).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(join(dataDir, 'vapid-keys.json'), 'utf8'))).toEqual({
      publicKey: first.publicKey,
      privateKey: first.privateKey,
    });
    expect(load({ NODE_ENV: 'development', DATA_DIR: dataDir }).push).toEqual(first);
  });

  it('has no push in tests without keys, and writes nothing', () => {
    expect(load({ NODE_ENV: 'test' }).push).toBeUndefined();
  });
});
