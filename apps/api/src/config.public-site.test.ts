import { describe, expect, it } from 'vitest';
import { ConfigError, DEV_SUPPORT_EMAIL, loadConfig, parseShortLinks } from './config.ts';

const CARD = '4b1d2c3e-1111-4222-8333-444455556666';
const load = (env: Record<string, string>) => loadConfig(env, { jwtSecret: 'x'.repeat(40) });
const problemsOf = (env: Record<string, string>) => {
  try {
    load(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.join('\n');
    throw error;
  }
  return '';
};

describe('public-site configuration', () => {
  it('reads company, support and social details, leaving unset ones undefined', () => {
    const config = load({
      COMPANY_NAME: ' Example Payments SIA ',
      SUPPORT_EMAIL: 'help@tipcard.test',
      SOCIAL_TIKTOK_URL: 'https://tiktok.com/@tipcard',
    });
    expect(config.site).toEqual({
      companyName: 'Example Payments SIA',
      companyRegistrationNumber: undefined,
      companyLicence: undefined,
      companyAddress: undefined,
      supportEmail: 'help@tipcard.test',
      supportPhone: undefined,
      instagramUrl: undefined,
      facebookUrl: undefined,
      tiktokUrl: 'https://tiktok.com/@tipcard',
    });
    expect(config.contactRecipient).toBe('help@tipcard.test');
  });

  it('rejects a support address that is not one and social links that are not https', () => {
    const problems = problemsOf({
      SUPPORT_EMAIL: 'support',
      SOCIAL_FACEBOOK_URL: 'http://facebook.com/x',
      SOCIAL_INSTAGRAM_URL: 'instagram',
    });
    for (const name of ['SUPPORT_EMAIL', 'SOCIAL_FACEBOOK_URL', 'SOCIAL_INSTAGRAM_URL']) expect(problems).toContain(name);
  });

  it('sends contact messages to the dev outbox placeholder only in development without SMTP', () => {
    expect(load({}).contactRecipient).toBe(DEV_SUPPORT_EMAIL);
    expect(load({ SMTP_URL: 'smtp://mail.test:587', MAIL_FROM: 'noreply@tipcard.test' }).contactRecipient).toBeUndefined();
  });

  it('needs a sender with SMTP_URL, and both Turnstile keys or neither', () => {
    expect(problemsOf({ SMTP_URL: 'smtp://mail.test:587' })).toContain('MAIL_FROM');
    expect(load({ SMTP_URL: 'smtp://mail.test:587', SUPPORT_EMAIL: 'help@tipcard.test' }).mailFrom).toBe('help@tipcard.test');
    expect(problemsOf({ TURNSTILE_SECRET: 'secret' })).toContain('TURNSTILE_SITE_KEY');
    expect(problemsOf({ TURNSTILE_SITE_KEY: 'key' })).toContain('TURNSTILE_SECRET');
    expect(load({ TURNSTILE_SECRET: 's', TURNSTILE_SITE_KEY: 'k' }).turnstileVerifyUrl).toBe(
      'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    );
  });
});

describe('SHORT_LINKS', () => {
  it('parses up to three name=card pairs', () => {
    expect(load({ SHORT_LINKS: `tip=${CARD}, bar-2=${CARD.toUpperCase()}` }).shortLinks).toEqual({ tip: CARD, 'bar-2': CARD });
    expect(load({}).shortLinks).toEqual({});
  });

  it('lists every problem: too many, bad shape, a used path, a repeated name', () => {
    expect(problemsOf({ SHORT_LINKS: ['a', 'b', 'c', 'd'].map((name) => `${name}=${CARD}`).join(',') })).toContain(
      'at most 3 short links',
    );
    expect(parseShortLinks(`Tip=${CARD}`)).toEqual({ problems: [expect.stringContaining('is not name=<card id>')] });
    expect(parseShortLinks('tip=not-a-uuid')).toEqual({ problems: [expect.stringContaining('is not name=<card id>')] });
    expect(parseShortLinks(`faq=${CARD}`)).toEqual({ problems: ['"faq" is a path the site already uses'] });
    expect(parseShortLinks(`tip=${CARD},tip=${CARD}`)).toEqual({ problems: ['"tip" is given twice'] });
    expect(problemsOf({ SHORT_LINKS: `api=${CARD}` })).toContain('SHORT_LINKS');
  });
});
