import { z } from 'zod';
import { normalizePhone } from './phone.ts';
import { requiredString, rule } from '../validation.ts';

/** A phone number of a served country, answered in E.164. */
export const phoneSchema = requiredString(32).transform((value, ctx) => {
  const phone = normalizePhone(value);
  if (!phone) {
    ctx.addIssue({ code: 'custom', message: rule('phone') });
    return z.NEVER;
  }
  return phone;
});

const codeSchema = requiredString(16);

export const requestOtpBody = z.object({ username: phoneSchema });
export type RequestOtpBody = z.input<typeof requestOtpBody>;

export const loginCheckBody = z.object({ username: phoneSchema, password: codeSchema });
export type LoginCheckBody = z.input<typeof loginCheckBody>;

export const registerBody = z.object({
  username: phoneSchema,
  age_confirmed: z.literal(true, { error: rule('age_confirmed') }),
  terms_accepted: z.literal(true, { error: rule('terms_accepted') }),
  referral_code: z.string().trim().max(32, rule('max_length')).optional(),
  promo_source: z.string().trim().max(100, rule('max_length')).optional(),
});
export type RegisterBody = z.input<typeof registerBody>;

export const verifyBody = z.object({ code: codeSchema });
export type VerifyBody = z.input<typeof verifyBody>;

/** The refresh token may come in the body (spec) or in the `refresh__key` cookie. */
export const refreshBody = z.object({ refreshToken: z.string().max(200).optional() }).nullish();

export const registerUidParams = z.object({ uid: z.uuid({ error: rule('valid') }) });

export const tokensSchema = z.object({ jwt: z.string(), refresh_token: z.string() });
export type Tokens = z.infer<typeof tokensSchema>;

export const registrationSchema = z.object({ uuid: z.uuid() });

export const otpSentSchema = z.object({ resend_after_seconds: z.number().int() });
