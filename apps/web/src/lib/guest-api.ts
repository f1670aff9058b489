import type { ActionBody, CreateDonationBody, PublicAction } from '@tipcard/shared/donations/schemas';
import type { PayInvoiceBody, PublicInvoice } from '@tipcard/shared/invoices/schemas';
import type { CreatePaymentBody, PublicCard, PublicPayment } from '@tipcard/shared/payments/schemas';
import { guestLocale } from './guest-i18n.ts';

/**
 * The guest pages' own few calls, on plain fetch: the app's api-client carries the signed-in behaviour (refresh,
 * snackbars, the catalogs of every page) that a guest never needs and that would weigh on the first paint.
 */
const BASE_URL = (import.meta.env.VITE_API_URL as string | undefined) ?? '/api';

/** The header the anti-bot check reads (apps/api plugins/anti-bot.ts). */
const HUMAN_TOKEN_HEADER = 'cf-turnstile-response';

export class PublicApiError extends Error {
  /** 0 when no answer came (offline, DNS, aborted connection). */
  readonly status: number;
  readonly code: string | undefined;

  constructor(status: number, code?: string, message?: string) {
    super(message ?? `Request failed with status ${status}`);
    this.name = 'PublicApiError';
    this.status = status;
    this.code = code;
  }
}

/** The answer of a call that succeeded; a failed one throws a PublicApiError with the error body's code. */
async function request(path: string, init: RequestInit = {}): Promise<Response> {
  let response: Response;
  try {
    // The page's language, not the browser's: the provider's checkout and the e-mails speak it.
    const headers = { Accept: 'application/json', 'Accept-Language': guestLocale(), ...init.headers };
    response = await fetch(`${BASE_URL}${path}`, { credentials: 'same-origin', ...init, headers });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new PublicApiError(0, 'network');
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { code?: string; message?: string } | null;
    throw new PublicApiError(response.status, body?.code, body?.message);
  }
  return response;
}

async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
  return ((await (await request(path, init)).json()) as { data: T }).data;
}

export function fetchPublicCard(cardId: string, signal?: AbortSignal): Promise<PublicCard> {
  return call<PublicCard>(`/public/cards/${encodeURIComponent(cardId)}`, { signal });
}

export function fetchPublicPayment(paymentId: string, signal?: AbortSignal): Promise<PublicPayment> {
  return call<PublicPayment>(`/public/payments/${encodeURIComponent(paymentId)}`, { signal, cache: 'no-store' });
}

/** A checkout opened once per Idempotency-Key, with the anti-bot token when the page has one. */
function openCheckout(path: string, body: unknown, idempotencyKey: string, humanToken: string | null): Promise<PublicPayment> {
  return call<PublicPayment>(path, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'Idempotency-Key': idempotencyKey,
      ...(humanToken ? { [HUMAN_TOKEN_HEADER]: humanToken } : {}),
    },
    body: JSON.stringify(body),
  });
}

export function createPublicPayment(
  cardId: string,
  body: CreatePaymentBody,
  idempotencyKey: string,
  humanToken: string | null,
): Promise<PublicPayment> {
  return openCheckout(`/public/cards/${encodeURIComponent(cardId)}/payments`, body, idempotencyKey, humanToken);
}

export function fetchPublicInvoice(invoiceId: string, signal?: AbortSignal): Promise<PublicInvoice> {
  return call<PublicInvoice>(`/public/invoices/${encodeURIComponent(invoiceId)}`, { signal, cache: 'no-store' });
}

export function createInvoicePayment(
  invoiceId: string,
  body: PayInvoiceBody,
  idempotencyKey: string,
  humanToken: string | null,
): Promise<PublicPayment> {
  return openCheckout(`/public/invoices/${encodeURIComponent(invoiceId)}/payments`, body, idempotencyKey, humanToken);
}

export function createDonationPayment(
  cardId: string,
  body: CreateDonationBody,
  idempotencyKey: string,
  humanToken: string | null,
): Promise<PublicPayment> {
  return openCheckout(`/public/cards/${encodeURIComponent(cardId)}/donations`, body, idempotencyKey, humanToken);
}

/** The anti-bot site key, when the operator configured one (GET /api/site); null otherwise or when unreachable. */
export async function fetchHumanCheckSiteKey(signal?: AbortSignal): Promise<string | null> {
  try {
    return (await call<{ turnstile_site_key: string | null }>('/site', { signal })).turnstile_site_key;
  } catch {
    return null;
  }
}

export function fetchPublicAction(actionId: string, signal?: AbortSignal): Promise<PublicAction> {
  return call<PublicAction>(`/public/actions/${encodeURIComponent(actionId)}`, { signal, cache: 'no-store' });
}

/** Confirms a signed link that changes a monthly donation; answers the plan as it now stands. */
export function confirmAction(actionId: string, body: ActionBody): Promise<PublicAction> {
  return call<PublicAction>(`/public/actions/${encodeURIComponent(actionId)}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** A receipt or statement link's PDF. */
export async function downloadActionPdf(actionId: string): Promise<Blob> {
  const response = await request(`/public/actions/${encodeURIComponent(actionId)}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
  });
  return response.blob();
}

export function guestErrorText(error: unknown, t: (key: string) => string): { title: string; text?: string } {
  if (!(error instanceof PublicApiError)) return { title: t('errors.generic'), text: t('errors.generic_text') };
  if (error.status === 0) return { title: t('errors.network') };
  if (error.status === 429) return { title: t('errors.rate_limited') };
  if (error.code === 'bot_check_failed') return { title: t('errors.bot_check') };
  if (error.code === 'idempotency_key_reused') return { title: t('errors.changed') };
  return { title: t('errors.generic'), text: t('errors.generic_text') };
}
