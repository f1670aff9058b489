import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  loginCheckBody,
  otpSentSchema,
  refreshBody,
  registerBody,
  registerUidParams,
  registrationSchema,
  requestOtpBody,
  tokensSchema,
  verifyBody,
} from '@tipcard/shared/auth/schemas';
import { REFRESH_TOKEN_COOKIE, REFRESH_TOKEN_TTL_DAYS } from '@tipcard/shared/constants';
import { AppError } from '../../lib/app-error.ts';
import { acceptedLocale, statedLocale } from '../../lib/i18n.ts';
import { data } from '../../lib/envelope.ts';
import type { AuthService, Tokens } from './auth.service.ts';

const MINUTE = 60_000;

export interface AuthRoutesOptions {
  auth: AuthService;
  secureCookies: boolean;
}

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, { auth, secureCookies }) => {
  /** Per client IP, before the body is read. */
  const perIp = (name: string, max: number) =>
    app.rateLimit({ max, timeWindow: MINUTE, keyGenerator: (request) => `${name}:ip:${request.ip}` });
  /**
   * Per phone number, after validation has turned it into E.164. The plugin runs one `rateLimit` hook per request,
   * so this second limit uses its lower-level limiter.
   */
  const perPhone = (name: string, max: number) => {
    const limiter = app.createRateLimit({
      max,
      timeWindow: MINUTE,
      keyGenerator: (request) => `${name}:phone:${(request.body as { username: string }).username}`,
    });
    return async (request: FastifyRequest) => {
      const outcome = await limiter(request);
      if (!outcome.isAllowed && outcome.isExceeded) {
        throw new AppError('too_many_requests', { headers: { 'retry-after': String(outcome.ttlInSeconds) } });
      }
    };
  };

  /** The refresh token also travels as an HttpOnly cookie, scoped to the API (DESIGN "Sign-in and security"). */
  const sendTokens = (reply: FastifyReply, tokens: Tokens) => {
    reply.setCookie(REFRESH_TOKEN_COOKIE, tokens.refresh_token, {
      path: '/api',
      httpOnly: true,
      secure: secureCookies,
      sameSite: 'strict',
      maxAge: REFRESH_TOKEN_TTL_DAYS * 24 * 60 * 60,
    });
    return { data: tokens };
  };
  const refreshTokenOf = (request: FastifyRequest<{ Body: z.infer<typeof refreshBody> }>) =>
    request.body?.refreshToken || request.cookies[REFRESH_TOKEN_COOKIE] || undefined;

  app.post(
    '/request-otp',
    {
      onRequest: perIp('request-otp', 20),
      preHandler: perPhone('request-otp', 5),
      schema: { tags: ['auth'], summary: 'Text a sign-in code', body: requestOtpBody, response: { 200: data(otpSentSchema) } },
    },
    async (request) => {
      const sent = await auth.requestOtp(request.body.username, acceptedLocale(request));
      return { data: { resend_after_seconds: sent.resendAfterSeconds } };
    },
  );

  app.post(
    '/login_check',
    {
      onRequest: perIp('login-check', 30),
      preHandler: perPhone('login-check', 10),
      schema: {
        tags: ['auth'],
        summary: 'Sign in with the texted code',
        body: loginCheckBody,
        response: { 200: data(tokensSchema) },
      },
    },
    async (request, reply) =>
      sendTokens(reply, await auth.loginCheck(request.body.username, request.body.password, statedLocale(request))),
  );

  app.post(
    '/register',
    {
      onRequest: perIp('register', 20),
      preHandler: perPhone('register', 5),
      schema: { tags: ['auth'], summary: 'Start a sign-up', body: registerBody, response: { 200: data(registrationSchema) } },
    },
    async (request) => ({ data: await auth.register(request.body, acceptedLocale(request)) }),
  );

  app.post(
    '/register/:uid/verify',
    {
      onRequest: perIp('verify', 30),
      schema: {
        tags: ['auth'],
        summary: 'Finish a sign-up with the texted code',
        params: registerUidParams,
        body: verifyBody,
        response: { 200: data(tokensSchema) },
      },
    },
    async (request, reply) =>
      sendTokens(reply, await auth.verifyRegistration(request.params.uid, request.body.code, acceptedLocale(request))),
  );

  app.post(
    '/register/:uid/resend',
    {
      onRequest: perIp('resend', 20),
      schema: {
        tags: ['auth'],
        summary: 'Text the sign-up code again',
        params: registerUidParams,
        response: { 200: data(otpSentSchema) },
      },
    },
    async (request) => {
      const sent = await auth.resendRegistrationCode(request.params.uid, acceptedLocale(request));
      return { data: { resend_after_seconds: sent.resendAfterSeconds } };
    },
  );

  app.post(
    '/refresh-token',
    {
      onRequest: perIp('refresh', 60),
      schema: { tags: ['auth'], summary: 'Rotate the refresh token', body: refreshBody, response: { 200: data(tokensSchema) } },
    },
    async (request, reply) => {
      const token = refreshTokenOf(request);
      if (!token) throw new AppError('invalid_refresh_token');
      return sendTokens(reply, await auth.refresh(token, statedLocale(request)));
    },
  );

  app.post(
    '/logout',
    {
      onRequest: perIp('logout', 60),
      schema: {
        tags: ['auth'],
        summary: 'Revoke the refresh token family',
        body: refreshBody,
        response: { 200: data(z.object({ ok: z.literal(true) })) },
      },
    },
    async (request, reply) => {
      await auth.logout(refreshTokenOf(request));
      reply.clearCookie(REFRESH_TOKEN_COOKIE, { path: '/api' });
      return { data: { ok: true as const } };
    },
  );
};
