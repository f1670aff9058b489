import { randomUUID } from 'node:crypto';
import formbody from '@fastify/formbody';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Locale } from '@tipcard/shared/constants';
import {
  checkoutWithWallet,
  defaultPreset,
  RECEIPT_OUTCOMES,
  type GuestFormNotice,
  type GuestFormStart,
  type GuestSuccess,
  type ReceiptOutcome,
} from '@tipcard/shared/payments/guest-form';
import type { PublicCard } from '@tipcard/shared/payments/schemas';
import { isUuid as isUuidText } from '@tipcard/shared/uuid';
import { AppError } from '../../lib/app-error.ts';
import { fromThisSite } from '../../lib/same-site.ts';
import { requestLocale, t } from '../../lib/i18n.ts';
import { answeredFromCache, sendPrecompressed } from '../../lib/http-cache.ts';
import { paymentPageRenderer, sendShell, shellHtml, type ShellPage } from '../web-shell/web-shell.service.ts';
import { readDonationForm, readGuestForm, type GuestFormFields } from './guest-form.ts';
import type { TipsService } from './tips.service.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** How long a browser or a shared cache may show a card's form page before asking again (docs/decisions/0018). */
const GUEST_PAGE_MAX_AGE_SECONDS = 30;
/** The form page's language comes from the `locale` cookie or Accept-Language (requestLocale). */
const GUEST_PAGE_VARY = 'Accept-Language, Cookie, Accept-Encoding';

/** An id from the URL that can be read as a uuid (a pattern test: a zod schema built per request cost more than the page). */
const isUuid = (value: string | null | undefined): value is string => typeof value === 'string' && isUuidText(value);

/** What the page is rendered from and inlined for hydration (apps/web features/tips/tip-app.tsx `TipShellData`). */
interface PageData {
  card: PublicCard | null;
  locale: Locale;
  start?: GuestFormStart | null;
  form_key?: string;
  success?: GuestSuccess | null;
  receipt?: ReceiptOutcome | null;
}

/**
 * The guest's pages in path form, rendered on the server with the same components as the browser's (apps/web
 * public-server.tsx), CSS inlined and the data inlined for hydration: the first paint needs this one response, and
 * the tip form works without JavaScript (its plain POST answers 303 to the checkout). See
 * docs/decisions/0030-guest-page-ssr.md.
 */
export const paymentPagesRoutes: FastifyPluginAsyncZod<{ tips: TipsService }> = async (app, { tips }) => {
  await app.register(formbody);
  const { publicUrl, webServerEntry } = app.config;
  const presets = tips.termsOfPayment().preset_amounts_cents;

  const cardOf = async (cardId: string | null) => (cardId && isUuid(cardId) ? await tips.publicCard(cardId) : null);

  /** The page for a URL, in a language, from what the server knows (rendered with React when the build has it). */
  const pageOf = async (
    locale: Locale,
    url: { pathname: string; search: string },
    cardId: string | null,
    card: PublicCard | null,
    extra: Omit<PageData, 'card' | 'locale'>,
    status?: number,
    noscriptRefreshSeconds?: number,
  ): Promise<ShellPage> => {
    const data: PageData = { card, locale, ...extra };
    const render = await paymentPageRenderer(webServerEntry);
    return {
      entry: 'public.html',
      locale,
      title: card ? t('payment:meta.title', { name: card.public_name }, locale) : t('payment:meta.generic_title', {}, locale),
      description: t('payment:meta.description', {}, locale),
      path: cardId ? `/payment/${cardId}` : '/payment',
      data,
      status: status ?? (cardId && !card ? 404 : 200),
      noscriptRefreshSeconds,
      // The rendered form works before its script (a plain POST): the script starts after the first paint so the
      // page paints with its response alone, on a slow phone as on a fast one (docs/decisions/0030-guest-page-ssr.md).
      ...(render ? { html: render(url, data, locale), bootAfterPaint: true } : {}),
    };
  };

  const sendPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    cardId: string | null,
    card: PublicCard | null,
    extra: Omit<PageData, 'card' | 'locale'> = {},
    status?: number,
    noscriptRefreshSeconds?: number,
  ) => {
    const [pathname = '/', query = ''] = request.url.split('?');
    const url = { pathname, search: query ? `?${query}` : '' };
    return sendShell(reply, await pageOf(requestLocale(request), url, cardId, card, extra, status, noscriptRefreshSeconds));
  };

  const limit = app.rateLimit({ max: 240, timeWindow: MINUTE });
  // Any id is accepted here: an unknown one gets the page that says the link is no longer active.
  const params = z.object({ cardId: z.string().max(100) });
  const paymentQuery = z.object({ payment: z.string().max(100).optional(), receipt: z.string().max(20).optional() });

  // The provider's return page: a final payment goes straight to its outcome's page; a pending one is rendered
  // "confirming" and the script polls (without a script the page reloads itself every 2 seconds).
  app.get(
    '/payment/walletto-result',
    { onRequest: limit, schema: { hide: true, querystring: paymentQuery } },
    async (request, reply) => {
      const paymentId = request.query.payment;
      const payment = isUuid(paymentId) ? await tips.paymentById(paymentId) : null;
      if (payment && payment.status !== 'pending') {
        const outcome = payment.status === 'succeeded' ? 'success' : payment.status === 'canceled' ? 'canceled' : 'failed';
        return reply.redirect(`${app.prefix}/payment/${payment.card_id}/${outcome}?payment=${payment.id}`, 303);
      }
      return sendPage(request, reply, null, null, {}, 200, 2);
    },
  );

  // Public and cacheable (docs/decisions/0018-cached-guest-reads.md): the same bytes for every guest of a card in a
  // language, so it carries no per-view idempotency key; the script mints one per payment, a plain POST gets one below.
  app.get('/payment/:cardId', { onRequest: limit, schema: { hide: true, params } }, async (request, reply) => {
    const { cardId } = request.params;
    const read = isUuid(cardId) ? await tips.publicCardRead(cardId) : null;
    const card = read?.card ?? null;
    if (!read || !card) return sendPage(request, reply, cardId, null, { start: null });
    const locale = requestLocale(request);
    // Rendered once per card version and language, kept beside the card (decision 0051).
    const page = await tips.formPage(read, locale, async () =>
      shellHtml(app.config, await pageOf(locale, { pathname: `/payment/${cardId}`, search: '' }, cardId, card, { start: null })),
    );
    if (page === null) return reply.callNotFound();
    // The language comes from the `locale` cookie or Accept-Language (requestLocale).
    if (answeredFromCache(request, reply, { etag: page.etag, maxAgeSeconds: GUEST_PAGE_MAX_AGE_SECONDS, vary: GUEST_PAGE_VARY }))
      return reply;
    return sendPrecompressed(request, reply.type('text/html; charset=utf-8'), page);
  });

  // A payment that did not go through: the form again with what the guest entered and the spec's message.
  for (const notice of ['canceled', 'failed', 'timeout'] as const satisfies readonly GuestFormNotice[]) {
    app.get(
      `/payment/:cardId/${notice}`,
      { onRequest: limit, schema: { hide: true, params, querystring: paymentQuery } },
      async (request, reply) => {
        const { cardId } = request.params;
        const card = await cardOf(cardId);
        const paymentId = request.query.payment ?? null;
        if (card && notice !== 'timeout' && (await tips.successOf(cardId, paymentId, requestLocale(request)))) {
          return reply.redirect(`${app.prefix}/payment/${cardId}/success?payment=${paymentId}`, 303);
        }
        const start = card
          ? await tips.retryOf(cardId, paymentId, notice, card.preset_amounts_cents ?? presets, requestLocale(request))
          : null;
        const fresh: GuestFormStart = {
          ...EMPTY_START,
          preset_cents: defaultPreset(card?.preset_amounts_cents ?? presets),
          notice,
        };
        return sendPage(request, reply, cardId, card, { start: start ?? fresh, form_key: randomUUID() });
      },
    );
  }

  // "Thank you!" only for this card's paid payment; a pending one goes back to the return page that waits for it.
  app.get(
    '/payment/:cardId/success',
    { onRequest: limit, schema: { hide: true, params, querystring: paymentQuery } },
    async (request, reply) => {
      const { cardId } = request.params;
      const card = await cardOf(cardId);
      const paymentId = request.query.payment ?? null;
      const success = card ? await tips.successOf(cardId, paymentId, requestLocale(request)) : null;
      if (card && !success) {
        const payment = await tips.paymentOfCard(cardId, paymentId);
        if (payment?.status === 'pending')
          return reply.redirect(`${app.prefix}/payment/walletto-result?payment=${payment.id}`, 303);
      }
      const receipt = (RECEIPT_OUTCOMES as readonly string[]).includes(request.query.receipt ?? '')
        ? (request.query.receipt as ReceiptOutcome)
        : null;
      return sendPage(request, reply, cardId, card, { success, receipt }, card && !success ? 404 : undefined);
    },
  );

  // The tip form without JavaScript: the JSON call's validation, limits and idempotency, answered with the checkout.
  app.post('/payment/:cardId', { schema: { hide: true, params } }, async (request, reply) => {
    const { cardId } = request.params;
    if (!fromThisSite(request, publicUrl)) throw new AppError('forbidden');
    const card = await cardOf(cardId);
    if (!card) throw new AppError('not_found');
    const fields = (request.body ?? {}) as GuestFormFields;
    const locale = requestLocale(request);
    const cardPresets = card.preset_amounts_cents ?? presets;
    const donation = card.activity_type === 'DONATION';
    const { body, start } = donation ? readDonationForm(fields, cardPresets, locale) : readGuestForm(fields, cardPresets);
    // The cached form page has no key (every guest gets its bytes): its plain POST is a new payment each time. The
    // form shown again after a refusal is this guest's alone and carries the key, so sending it again is the same try.
    const key =
      typeof fields.idempotency_key === 'string' && /^[\w-]{8,100}$/.test(fields.idempotency_key)
        ? fields.idempotency_key
        : randomUUID();
    const again = (notice: GuestFormNotice | null, status: number, formKey = key) =>
      sendPage(request, reply, cardId, card, { start: { ...start, notice }, form_key: formKey }, status);
    if (!body) return again(Object.keys(start.errors).length > 0 ? null : 'error', 422);
    // Through the JSON call itself (tips.routes.ts, donations.routes.ts), from the guest's address: the same
    // validation, rate-limit budget, anti-bot check, card-testing limits and idempotency, whichever door the guest
    // came in by.
    const answer = await app.inject({
      method: 'POST',
      url: `/api/public/cards/${encodeURIComponent(cardId)}/${donation ? 'donations' : 'payments'}`,
      remoteAddress: request.ip,
      headers: {
        'content-type': 'application/json',
        'idempotency-key': key,
        // The page's language, for the provider's checkout.
        'accept-language': locale,
        ...(typeof fields['cf-turnstile-response'] === 'string'
          ? { 'cf-turnstile-response': fields['cf-turnstile-response'] }
          : {}),
      },
      payload: JSON.stringify(body),
    });
    if (answer.statusCode === 201) {
      const payment = (answer.json() as { data: { checkout_url: string } }).data;
      return reply.redirect(checkoutWithWallet(payment.checkout_url, fields.wallet), 303);
    }
    const code = (answer.json() as { code?: string }).code;
    if (code === 'not_found') throw new AppError('not_found');
    if (code === 'too_many_requests') return again('rate_limited', 429);
    if (code === 'bot_check_failed') return again('bot_check', 403);
    // Another body under this page's key: the guest changed the amount after a submission; a new key is a new try.
    if (code === 'idempotency_key_reused') return again('changed', 422, randomUUID());
    return again('error', answer.statusCode);
  });

  // The e-mailed receipt of a paid tip (plain form on the success page), through the outbox. Limited per payment
  // (one limiter per request is all @fastify/rate-limit runs): sending many takes as many paid payments.
  const receiptPerPayment = app.rateLimit({
    max: 3,
    timeWindow: HOUR,
    keyGenerator: (request) =>
      `receipt:payment:${String((request.body as { payment?: unknown } | undefined)?.payment).slice(0, 100)}`,
  });
  app.post('/payment/:cardId/receipt', { schema: { hide: true, params } }, async (request, reply) => {
    const { cardId } = request.params;
    if (!fromThisSite(request, publicUrl)) throw new AppError('forbidden');
    const { payment, email } = (request.body ?? {}) as { payment?: string; email?: string };
    if (!isUuid(cardId) || !isUuid(payment)) throw new AppError('not_found');
    const back = (outcome: ReceiptOutcome) =>
      reply.redirect(`${app.prefix}/payment/${cardId}/success?payment=${payment}&receipt=${outcome}`, 303);
    const address = typeof email === 'string' ? email.trim() : '';
    if (!EMAIL.test(address) || address.length > 254) return back('invalid');
    try {
      await receiptPerPayment.call(app, request, reply);
    } catch (error) {
      if (error instanceof AppError && error.code === 'too_many_requests') return back('rate_limited');
      throw error;
    }
    await tips.sendReceipt(cardId, payment, address, requestLocale(request));
    return back('sent');
  });
};

/** The form of a payment the server cannot show again (another card's, or none): only the notice. */
const EMPTY_START: GuestFormStart = {
  preset_cents: null,
  custom: '',
  cover_fee: false,
  rating: null,
  message: '',
  terms: false,
  notice: null,
  payment_id: null,
  donor: null,
  errors: {},
};
