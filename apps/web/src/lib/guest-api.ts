import type { ActionBody, CreateDonationBody, PublicAction } from '@tipcard/shared/donations/schemas';
import type { PayInvoiceBody, PublicInvoice } from '@tipcard/shared/invoices/schemas';
import type { CreatePaymentBody, PublicCard, PublicPayment } from '@tipcard/shared/payments/schemas';
import type { ApiPath } from './api-client.ts';
import { guestErrorKey } from './error-text.ts';
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
async function request(path: ApiPath<'get'> | ApiPath<'post'>, init: RequestInit = {}): Promise<Response> {
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

/**
 * What a field of an answer must be: a `typeof`, `array`, `object`, or with `?` also null. The guest pages carry no
 * zod (it would weigh more than the page): each answer is checked for the fields the page reads, and one that lacks
 * them fails like any other unusable answer (the page's "try again"), never as a crash further on.
 */
type FieldKind = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'string?';
type Shape = Record<string, FieldKind>;

function hasShape(value: unknown, shape: Shape): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(shape).every(([name, kind]) => {
    const field = (value as Record<string, unknown>)[name];
    if (kind === 'array') return Array.isArray(field);
    if (kind === 'object') return typeof field === 'object' && field !== null;
    if (kind === 'string?') return field === null || typeof field === 'string';
    return typeof field === kind;
  });
}

const CARD: Shape = {
  id: 'string',
  public_name: 'string',
  title: 'string',
  image_url: 'string?',
  activity_type: 'string',
  fee_percent: 'number',
  min_amount_cents: 'number',
  max_amount_cents: 'number',
  preset_amounts_cents: 'array',
};
const PAYMENT: Shape = {
  id: 'string',
  card_id: 'string',
  status: 'string',
  amount_cents: 'number',
  total_cents: 'number',
  checkout_url: 'string',
};
const INVOICE: Shape = { id: 'string', description: 'string', amount_cents: 'number', status: 'string', recipient: 'object' };
const INVOICE_RECIPIENT: Shape = { public_name: 'string', image_url: 'string?' };
const ACTION: Shape = { kind: 'string', state: 'string', locale: 'string', plan: 'object' };
const ACTION_PLAN: Shape = { recipient_name: 'string', amount_cents: 'number', status: 'string', next_charge_at: 'string?' };
const SITE: Shape = { turnstile_site_key: 'string?' };

const isCard = (data: unknown): data is PublicCard => hasShape(data, CARD);
const isPayment = (data: unknown): data is PublicPayment => hasShape(data, PAYMENT);
const isInvoice = (data: unknown): data is PublicInvoice =>
  hasShape(data, INVOICE) && hasShape(data.recipient, INVOICE_RECIPIENT);
const isAction = (data: unknown): data is PublicAction => hasShape(data, ACTION) && hasShape(data.plan, ACTION_PLAN);
const isSite = (data: unknown): data is { turnstile_site_key: string | null } => hasShape(data, SITE);

/** The answer's `data` when it has the shape the page reads; otherwise the call failed with the answer's status. */
async function call<T>(
  path: ApiPath<'get'> | ApiPath<'post'>,
  isAnswer: (data: unknown) => data is T,
  init: RequestInit = {},
): Promise<T> {
  const response = await request(path, init);
  const body: unknown = await response.json().catch(() => null);
  const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
  if (!isAnswer(data)) throw new PublicApiError(response.status, undefined, 'The answer lacks what the page shows');
  return data;
}

export function fetchPublicCard(cardId: string, signal?: AbortSignal): Promise<PublicCard> {
  return call(`/public/cards/${encodeURIComponent(cardId)}`, isCard, { signal });
}

export function fetchPublicPayment(paymentId: string, signal?: AbortSignal): Promise<PublicPayment> {
  return call(`/public/payments/${encodeURIComponent(paymentId)}`, isPayment, { signal, cache: 'no-store' });
}

/** A checkout opened once per Idempotency-Key, with the anti-bot token when the page has one. */
function openCheckout(
  path: ApiPath<'post'>,
  body: unknown,
  idempotencyKey: string,
  humanToken: string | null,
): Promise<PublicPayment> {
  return call(path, isPayment, {
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
  return call(`/public/invoices/${encodeURIComponent(invoiceId)}`, isInvoice, { signal, cache: 'no-store' });
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
    return (await call('/site', isSite, { signal })).turnstile_site_key;
  } catch {
    return null;
  }
}

export function fetchPublicAction(actionId: string, signal?: AbortSignal): Promise<PublicAction> {
  return call(`/public/actions/${encodeURIComponent(actionId)}`, isAction, { signal, cache: 'no-store' });
}

/** Confirms a signed link that changes a monthly donation; answers the plan as it now stands. */
export function confirmAction(actionId: string, body: ActionBody): Promise<PublicAction> {
  return call(`/public/actions/${encodeURIComponent(actionId)}`, isAction, {
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

/**
 * The form's message for a failed call: what the one error map (error-text.ts) says of its status or code, otherwise
 * that the payment could not be started.
 */
export function guestErrorText(error: unknown, t: (key: string) => string): { title: string; text?: string } {
  const key = error instanceof PublicApiError ? guestErrorKey(error.status, error.code) : null;
  return key ? { title: t(`errors:${key}`) } : { title: t('errors.generic'), text: t('errors.generic_text') };
}
