import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: URLSearchParams;
  headers: IncomingHttpHeaders;
}

/**
 * A stand-in for api.stripe.com that refuses what Stripe refuses: requests without a test secret key, without the
 * SDK's pinned `Stripe-Version` (its objects have that version's shapes) or with a body that is not form-encoded;
 * parameters the operation does not take (`parameter_unknown`) or lacks (`parameter_missing`); an Idempotency-Key
 * reused with other parameters (`idempotency_error`). A key reused with the same parameters replays the first
 * answer. Objects are complete in the SDK's types, so a field the provider reads is never missing only here.
 * Test helpers (`completeCheckout`, `openDispute`, …) move objects the way Stripe's side would.
 */
export class FakeStripe {
  readonly requests: RecordedRequest[] = [];
  readonly sessions = new Map<string, Stripe.Checkout.Session>();
  readonly paymentIntents = new Map<string, Stripe.PaymentIntent>();
  readonly charges = new Map<string, Stripe.Charge>();
  readonly refunds = new Map<string, Stripe.Refund>();
  readonly disputes = new Map<string, Stripe.Dispute>();
  readonly customers = new Map<
    string,
    { id: string; object: 'customer'; email: string | null; metadata: Record<string, string> }
  >();
  /** Cards a save-mode Checkout attached to a customer, for off-session payment intents. */
  readonly savedMethods = new Map<string, { customer: string; cardNumber: string }>();
  /** Saved cards whose off-session charges the issuer declines (a test moves a card here). */
  readonly decliningMethods = new Set<string>();
  /** Checkout's payment_intent_data, which Stripe keeps until the guest pays and the payment intent exists. */
  private readonly intentData = new Map<
    string,
    { metadata: Record<string, string>; description: string | null; saveFor?: string | undefined }
  >();
  private readonly idempotent = new Map<string, { request: string; status: number; payload: unknown }>();
  private counter = 0;
  private server: Server | undefined;
  port = 0;

  async start() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        const recorded: RecordedRequest = {
          method: req.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          body: new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
          headers: req.headers,
        };
        this.requests.push(recorded);
        const { status, payload, replayed } = this.answer(recorded);
        res.writeHead(status, {
          'content-type': 'application/json',
          'request-id': `req_${++this.counter}`,
          ...(replayed && { 'idempotent-replayed': 'true' }),
        });
        res.end(JSON.stringify(payload));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop() {
    await new Promise<void>((resolve, reject) => this.server?.close((error) => (error ? reject(error) : resolve())));
  }

  reset() {
    this.requests.length = 0;
    for (const map of [
      this.sessions,
      this.paymentIntents,
      this.charges,
      this.refunds,
      this.disputes,
      this.intentData,
      this.idempotent,
      this.customers,
      this.savedMethods,
    ])
      map.clear();
    this.decliningMethods.clear();
  }

  /**
   * The guest paid on the hosted page: a payment intent and its charge exist; `unpaid` is an async method still
   * processing. `cardNumber` is the card used, `wallet` the wallet it was in: the charge carries a fingerprint that is
   * the same for the same card (a wallet's device card has its own, as at Stripe).
   */
  completeCheckout(
    sessionId: string,
    paymentStatus: 'paid' | 'unpaid' = 'paid',
    cardNumber = '4242424242424242',
    wallet?: FakeWallet,
  ): Stripe.Checkout.Session {
    const session = this.must(this.sessions.get(sessionId), sessionId);
    const data = this.intentData.get(sessionId) ?? { metadata: {}, description: null };
    const amount = session.amount_total ?? 0;
    const currency = session.currency ?? 'eur';
    const intentId = this.id('pi');
    const charge = paymentStatus === 'paid' ? this.newCharge(intentId, amount, currency, data, cardNumber, wallet) : null;
    const intent = this.newPaymentIntent(intentId, amount, currency, data);
    // setup_future_usage with a customer: the card stays attached to that customer for off-session charges.
    if (data.saveFor && charge) this.savedMethods.set(intent.payment_method as string, { customer: data.saveFor, cardNumber });
    this.paymentIntents.set(intentId, {
      ...intent,
      customer: data.saveFor ?? null,
      status: charge ? 'succeeded' : 'processing',
      amount_received: charge ? amount : 0,
      latest_charge: charge?.id ?? null,
    });
    return this.replace(this.sessions, sessionId, {
      status: 'complete',
      payment_status: paymentStatus,
      payment_intent: intentId,
    });
  }

  /** An async payment method (e.g. SEPA debit) failed after the session completed. */
  failAsyncPayment(sessionId: string) {
    const intentId = this.must(this.sessions.get(sessionId), sessionId).payment_intent as string;
    this.replace(this.paymentIntents, intentId, { status: 'requires_payment_method' });
  }

  expireCheckout(sessionId: string): Stripe.Checkout.Session {
    return this.replace(this.sessions, sessionId, { status: 'expired', url: null });
  }

  /** The card holder disputes the session's charge; `inquiry` opens a pre-dispute inquiry (no funds withdrawn). */
  openDispute(sessionId: string, options: { amount?: number; inquiry?: boolean } = {}): Stripe.Dispute {
    const charge = this.chargeOf(sessionId);
    this.replace(this.charges, charge.id, { disputed: true });
    const dispute: Stripe.Dispute = {
      id: this.id('du'),
      object: 'dispute',
      amount: options.amount ?? charge.amount,
      balance_transactions: [],
      charge: charge.id,
      created: nowSeconds(),
      currency: charge.currency,
      enhanced_eligibility_types: [],
      evidence: emptyEvidence(),
      evidence_details: {
        due_by: nowSeconds() + 7 * 86_400,
        enhanced_eligibility: {},
        has_evidence: false,
        past_due: false,
        submission_count: 0,
        submission_method: 'not_submitted',
      },
      intended_submission_method: null,
      is_charge_refundable: false,
      livemode: false,
      metadata: {},
      payment_intent: charge.payment_intent,
      reason: 'fraudulent',
      status: options.inquiry ? 'warning_needs_response' : 'needs_response',
    };
    this.disputes.set(dispute.id, dispute);
    return dispute;
  }

  closeDispute(disputeId: string, status: 'won' | 'lost'): Stripe.Dispute {
    return this.replace(this.disputes, disputeId, { status });
  }

  /** The session's charge (after `completeCheckout`), as Stripe holds it now. */
  chargeOf(sessionId: string): Stripe.Charge {
    const intentId = this.must(this.sessions.get(sessionId), sessionId).payment_intent as string;
    const chargeId = this.must(this.paymentIntents.get(intentId), intentId).latest_charge as string;
    return this.must(this.charges.get(chargeId), chargeId);
  }

  private answer(request: RecordedRequest): { status: number; payload: unknown; replayed?: boolean } {
    const refused = refuseRequest(request);
    if (refused) return refused;
    const key = request.method === 'POST' ? headerOf(request.headers, 'idempotency-key') : undefined;
    // Stripe compares an idempotent retry's endpoint and parameters with the first request's (keys are per account).
    const fingerprint = `${request.method} ${request.path} ${[...request.body]
      .map(([name, value]) => `${name}=${value}`)
      .sort()
      .join('&')}`;
    const scopedKey = key && `${headerOf(request.headers, 'authorization')} ${key}`;
    const earlier = scopedKey ? this.idempotent.get(scopedKey) : undefined;
    if (earlier) {
      if (earlier.request === fingerprint) return { status: earlier.status, payload: earlier.payload, replayed: true };
      return {
        status: 400,
        payload: {
          error: {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          },
        },
      };
    }
    let result: { status: number; payload: unknown };
    try {
      result = { status: 200, payload: this.route(request) };
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      result = { status: error.status, payload: { error: error.body } };
      // Stripe saves a result only once the endpoint began executing: a request refused by validation can be fixed and retried.
      if (error.beforeExecution) return result;
    }
    if (scopedKey) this.idempotent.set(scopedKey, { request: fingerprint, ...result });
    return result;
  }

  private route({ method, path, query, body }: RecordedRequest): unknown {
    let match: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/checkout/sessions') return this.createSession(parseParams(body, SESSION_CREATE));
    if (method === 'GET' && path === '/v1/checkout/sessions') {
      const params = parseParams<Stripe.Checkout.SessionListParams>(query, SESSION_LIST);
      const data = [...this.sessions.values()].filter(
        (session) => params.payment_intent === undefined || session.payment_intent === params.payment_intent,
      );
      return {
        object: 'list',
        url: '/v1/checkout/sessions',
        has_more: data.length > (params.limit ?? 10),
        data: data.slice(0, params.limit ?? 10),
      };
    }
    const retrievable: [RegExp, Map<string, object>][] = [
      [/^\/v1\/checkout\/sessions\/([^/]+)$/, this.sessions],
      [/^\/v1\/payment_intents\/([^/]+)$/, this.paymentIntents],
      [/^\/v1\/charges\/([^/]+)$/, this.charges],
    ];
    for (const [pattern, objects] of retrievable) {
      if (method !== 'GET' || !(match = pattern.exec(path))) continue;
      // Parameters are checked before the object is looked up, as Stripe does.
      const { expand } = parseParams<{ expand?: string[] }>(query, EXPAND_ONLY);
      return this.expanded(this.found(objects, match[1]!), expand);
    }
    if (method === 'POST' && path === '/v1/refunds') return this.createRefund(parseParams(body, REFUND_CREATE));
    if (method === 'POST' && path === '/v1/customers') {
      const params = parseParams<{ email?: string; metadata?: Record<string, string> }>(body, CUSTOMER_CREATE);
      const customer = {
        id: this.id('cus'),
        object: 'customer' as const,
        email: params.email ?? null,
        metadata: params.metadata ?? {},
      };
      this.customers.set(customer.id, customer);
      return customer;
    }
    if (method === 'POST' && path === '/v1/payment_intents') {
      const params = parseParams<Stripe.PaymentIntentCreateParams & { metadata?: Record<string, string> }>(body, INTENT_CREATE);
      return this.expanded(this.createOffSessionIntent(params), params.expand);
    }
    throw new StripeApiError(
      404,
      { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` },
      true,
    );
  }

  private createSession(params: SessionCreate): Stripe.Checkout.Session {
    const now = nowSeconds();
    // Stripe's rule for `expires_at`: 30 minutes to 24 hours after the session is created.
    if (params.expires_at !== undefined && (params.expires_at < now + 30 * 60 || params.expires_at > now + 24 * 3600)) {
      throw invalid(
        'expires_at',
        'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.',
      );
    }
    if (params.mode === 'payment' && !params.line_items?.length) throw missing('line_items');
    const amount = (params.line_items ?? []).reduce(
      (sum, item) => sum + (item.price_data?.unit_amount ?? 0) * (item.quantity ?? 1),
      0,
    );
    const id = this.id('cs_test');
    const session: Stripe.Checkout.Session = {
      id,
      object: 'checkout.session',
      adaptive_pricing: { enabled: false },
      after_expiration: null,
      allow_promotion_codes: null,
      allowed_payment_method_types: null,
      amount_subtotal: amount,
      amount_total: amount,
      automatic_tax: { enabled: false, liability: null, provider: null, status: null },
      billing_address_collection: null,
      cancel_url: params.cancel_url ?? null,
      client_reference_id: params.client_reference_id ?? null,
      client_secret: null,
      collected_information: null,
      consent: null,
      consent_collection: null,
      created: now,
      currency: params.line_items?.[0]?.price_data?.currency ?? null,
      currency_conversion: null,
      custom_fields: [],
      custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
      customer: null,
      customer_account: null,
      customer_creation: 'if_required',
      customer_details: null,
      customer_email: null,
      discounts: [],
      expires_at: params.expires_at ?? now + 24 * 3600,
      integration_identifier: null,
      invoice: null,
      invoice_creation: {
        enabled: false,
        invoice_data: {
          account_tax_ids: null,
          custom_fields: null,
          description: null,
          footer: null,
          issuer: null,
          metadata: {},
          rendering_options: null,
        },
      },
      livemode: false,
      locale: params.locale ?? null,
      managed_payments: null,
      metadata: params.metadata ?? {},
      mode: params.mode ?? 'payment',
      origin_context: null,
      payment_intent: null,
      payment_link: null,
      payment_method_collection: 'if_required',
      payment_method_configuration_details: { id: 'pmc_test_default', parent: null },
      payment_method_options: {},
      payment_method_types: ['card'],
      payment_status: 'unpaid',
      permissions: null,
      recovered_from: null,
      saved_payment_method_options: null,
      setup_intent: null,
      shipping_address_collection: null,
      shipping_cost: null,
      shipping_options: [],
      status: 'open',
      submit_type: null,
      subscription: null,
      success_url: params.success_url ?? null,
      total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
      ui_mode: 'hosted',
      url: `https://checkout.stripe.com/c/pay/${id}`,
      wallet_options: null,
    };
    this.sessions.set(id, session);
    const saving = params.payment_intent_data?.setup_future_usage === 'off_session';
    if (saving && !params.customer)
      throw invalid('customer', 'A customer is needed to save a payment method in this test setup.');
    if (params.customer && !this.customers.has(params.customer))
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: `No such customer: '${params.customer}'`,
        param: 'customer',
      });
    if (params.customer) session.customer = params.customer;
    this.intentData.set(id, {
      metadata: params.payment_intent_data?.metadata ?? {},
      description: params.payment_intent_data?.description ?? null,
      saveFor: saving ? params.customer : undefined,
    });
    return session;
  }

  private createRefund(params: RefundCreate): Stripe.Refund {
    const intentId = params.payment_intent;
    if (!intentId) throw missing('payment_intent');
    const intent = this.found(this.paymentIntents, intentId);
    const chargeId = intent.latest_charge as string | null;
    const charge = chargeId ? this.charges.get(chargeId) : undefined;
    if (!charge || intent.status !== 'succeeded') {
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        message: `This PaymentIntent (${intentId}) does not have a successful charge to refund.`,
        param: 'payment_intent',
      });
    }
    const remaining = charge.amount - charge.amount_refunded;
    if (remaining === 0)
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        code: 'charge_already_refunded',
        message: `Charge ${charge.id} has already been refunded.`,
      });
    const amount = params.amount ?? remaining;
    if (amount > remaining) {
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        code: 'amount_too_large',
        message: `Refund amount (${amount}) is greater than unrefunded amount on charge (${remaining})`,
        param: 'amount',
      });
    }
    this.replace(this.charges, charge.id, { amount_refunded: charge.amount_refunded + amount, refunded: amount === remaining });
    const refund: Stripe.Refund = {
      id: this.id('re'),
      object: 'refund',
      amount,
      balance_transaction: this.id('txn'),
      charge: charge.id,
      created: nowSeconds(),
      currency: charge.currency,
      customer: null,
      customer_account: null,
      destination_details: {
        card: { reference_status: 'pending', reference_type: 'acquirer_reference_number', type: 'refund' },
        type: 'card',
      },
      metadata: params.metadata || {},
      payment_intent: intentId,
      payment_method: intent.payment_method,
      reason: params.reason ?? null,
      receipt_number: null,
      source_transfer_reversal: null,
      status: 'succeeded',
      transfer_reversal: null,
    };
    this.refunds.set(refund.id, refund);
    return refund;
  }

  /**
   * A payment intent confirmed at once with a saved card, the customer not present: Stripe refuses an unknown
   * customer or a card not attached to it (400), and answers a decline with 402 and the failed payment intent.
   */
  private createOffSessionIntent(
    params: Stripe.PaymentIntentCreateParams & { metadata?: Record<string, string> },
  ): Stripe.PaymentIntent {
    const missingObject = (param: string, id: string | undefined) =>
      new StripeApiError(400, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: `No such ${param}: '${id}'`,
        param,
      });
    if (!params.customer || !this.customers.has(params.customer)) throw missingObject('customer', params.customer);
    const saved = params.payment_method ? this.savedMethods.get(params.payment_method) : undefined;
    if (!saved) throw missingObject('payment_method', params.payment_method);
    if (saved.customer !== params.customer) {
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        message: `The payment method ${params.payment_method} does not belong to the customer ${params.customer}.`,
        param: 'payment_method',
      });
    }
    const id = this.id('pi');
    const data = { metadata: params.metadata ?? {}, description: params.description ?? null };
    const base = {
      ...this.newPaymentIntent(id, params.amount, params.currency, data),
      customer: params.customer,
      payment_method: params.payment_method!,
    };
    if (this.decliningMethods.has(params.payment_method!)) {
      const failed: Stripe.PaymentIntent = { ...base, status: 'requires_payment_method' };
      this.paymentIntents.set(id, failed);
      throw new StripeApiError(402, {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'insufficient_funds',
        message: 'Your card has insufficient funds.',
        payment_intent: failed,
      });
    }
    const charge = this.newCharge(id, params.amount, params.currency, data, saved.cardNumber);
    const intent: Stripe.PaymentIntent = {
      ...base,
      status: 'succeeded',
      amount_received: params.amount,
      latest_charge: charge.id,
    };
    this.paymentIntents.set(id, intent);
    return intent;
  }

  private newPaymentIntent(
    id: string,
    amount: number,
    currency: string,
    data: { metadata: Record<string, string>; description: string | null },
  ): Stripe.PaymentIntent {
    return {
      id,
      object: 'payment_intent',
      allowed_payment_method_types: null,
      amount,
      amount_capturable: 0,
      amount_details: { tip: {} },
      amount_received: 0,
      application: null,
      application_fee_amount: null,
      automatic_payment_methods: null,
      canceled_at: null,
      cancellation_reason: null,
      capture_method: 'automatic',
      client_secret: `${id}_secret_fake`,
      confirmation_method: 'automatic',
      created: nowSeconds(),
      currency,
      customer: null,
      customer_account: null,
      description: data.description,
      excluded_payment_method_types: null,
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      managed_payments: null,
      metadata: data.metadata,
      next_action: null,
      on_behalf_of: null,
      payment_method: this.id('pm'),
      payment_method_configuration_details: null,
      payment_method_options: {},
      payment_method_types: ['card'],
      payment_record: null,
      processing: null,
      receipt_email: null,
      review: null,
      setup_future_usage: null,
      shipping: null,
      source: null,
      statement_descriptor: null,
      statement_descriptor_suffix: null,
      status: 'requires_payment_method',
      transfer_group: null,
    };
  }

  private newCharge(
    intentId: string,
    amount: number,
    currency: string,
    data: { metadata: Record<string, string>; description: string | null },
    cardNumber: string,
    wallet?: FakeWallet,
  ): Stripe.Charge {
    const charge: Stripe.Charge = {
      id: this.id('ch'),
      object: 'charge',
      amount,
      amount_captured: amount,
      amount_refunded: 0,
      application: null,
      application_fee: null,
      application_fee_amount: null,
      balance_transaction: this.id('txn'),
      billing_details: { address: null, email: 'guest@example.com', name: null, phone: null, tax_id: null },
      calculated_statement_descriptor: 'TIPCARD',
      captured: true,
      created: nowSeconds(),
      currency,
      customer: null,
      description: data.description,
      disputed: false,
      failure_balance_transaction: null,
      failure_code: null,
      failure_message: null,
      fraud_details: {},
      livemode: false,
      // Stripe copies the payment intent's metadata onto the charges it creates.
      metadata: data.metadata,
      on_behalf_of: null,
      outcome: {
        advice_code: null,
        network_advice_code: null,
        network_decline_code: null,
        network_status: 'approved_by_network',
        reason: null,
        risk_level: 'normal',
        seller_message: 'Payment complete.',
        type: 'authorized',
      },
      paid: true,
      payment_intent: intentId,
      payment_method: this.id('pm'),
      payment_method_details: cardDetailsOf(cardNumber, wallet),
      receipt_email: null,
      receipt_number: null,
      receipt_url: null,
      refunded: false,
      review: null,
      shipping: null,
      source: null,
      source_transfer: null,
      statement_descriptor: null,
      statement_descriptor_suffix: null,
      status: 'succeeded',
      transfer_data: null,
      transfer_group: null,
    };
    this.charges.set(charge.id, charge);
    return charge;
  }

  /** `expand[]` paths such as `payment_intent.latest_charge`: each step must be an id of an object the fake holds. */
  private expanded<T extends object>(object: T, paths: string[] | undefined): T {
    let result = { ...object } as Record<string, unknown>;
    for (const path of paths ?? []) result = this.expandPath(result, path.split('.'), path);
    return result as T;
  }

  private expandPath(object: Record<string, unknown>, [field, ...rest]: string[], path: string): Record<string, unknown> {
    const value = object[field!];
    const target =
      typeof value === 'string'
        ? this.lookup(value)
        : typeof value === 'object' && value !== null
          ? (value as Record<string, unknown>)
          : undefined;
    if (!target) {
      if (value === null) return object;
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        message: `This property cannot be expanded (${path}).`,
        param: 'expand',
      });
    }
    return { ...object, [field!]: rest.length > 0 ? this.expandPath({ ...target }, rest, path) : target };
  }

  private lookup(id: string): Record<string, unknown> | undefined {
    for (const map of [this.sessions, this.paymentIntents, this.charges, this.refunds, this.disputes] as Map<string, object>[]) {
      const found = map.get(id);
      if (found) return { ...found };
    }
    return undefined;
  }

  private found<T>(map: Map<string, T>, id: string): T {
    const object = map.get(id);
    if (object === undefined)
      throw new StripeApiError(404, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: `No such object: '${id}'`,
        param: 'id',
      });
    return object;
  }

  private must<T>(object: T | undefined, id: string): T {
    if (object === undefined) throw new Error(`FakeStripe holds no ${id}`);
    return object;
  }

  private replace<T>(map: Map<string, T>, id: string, changes: Partial<T>): T {
    const next = { ...this.must(map.get(id), id), ...changes };
    map.set(id, next);
    return next;
  }

  private id(prefix: string) {
    return `${prefix}_${(++this.counter).toString().padStart(8, '0')}`;
  }
}

/** A Stripe event around `object`, signed for `secret` with the SDK's own test helper, as Stripe would deliver it. */
export function signedEvent(
  type: string,
  object: object,
  secret: string,
  options: { id?: string; created?: number; timestamp?: number } = {},
) {
  const payload = JSON.stringify({
    id: options.id ?? `evt_${crypto.randomUUID().replaceAll('-', '')}`,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: options.created ?? nowSeconds(),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  });
  // The SDK checks the timestamp against the real clock, so it is never taken from a test's fake timers.
  const header = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret,
    ...(options.timestamp !== undefined && { timestamp: options.timestamp }),
  });
  return { payload, body: Buffer.from(payload, 'utf8'), headers: { 'stripe-signature': header } };
}

function nowSeconds() {
  return Math.floor(Date.now() / 1000);
}

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: {
      type: string;
      message: string;
      code?: string;
      param?: string;
      decline_code?: string;
      payment_intent?: Stripe.PaymentIntent;
    },
    /** Refused before the endpoint ran (validation): Stripe saves no idempotent result for it. */
    readonly beforeExecution = false,
  ) {
    super(body.message);
  }
}

const invalid = (param: string, message: string, code?: string) =>
  new StripeApiError(400, { type: 'invalid_request_error', message, param, ...(code && { code }) }, true);
const missing = (param: string) => invalid(param, `Missing required param: ${param}.`, 'parameter_missing');

function refuseRequest(request: RecordedRequest): { status: number; payload: unknown } | undefined {
  const authorization = headerOf(request.headers, 'authorization');
  if (!authorization) {
    return refusal(
      401,
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
    );
  }
  if (!/^Bearer sk_test_[A-Za-z0-9_]+$/.test(authorization)) {
    return refusal(401, `Invalid API Key provided: ${authorization.replace(/^Bearer /, '').slice(0, 8)}****`);
  }
  const version = headerOf(request.headers, 'stripe-version');
  if (version !== Stripe.API_VERSION) {
    return refusal(400, `The fake answers API version ${Stripe.API_VERSION} only (Stripe-Version: ${version ?? 'missing'}).`);
  }
  const contentType = headerOf(request.headers, 'content-type')?.split(';')[0]?.trim();
  if (request.method === 'POST' && contentType !== 'application/x-www-form-urlencoded') {
    return refusal(
      400,
      `Invalid request: unsupported Content-Type ${contentType ?? 'none'}. Use application/x-www-form-urlencoded.`,
    );
  }
  return undefined;
}

function refusal(status: number, message: string) {
  return { status, payload: { error: { type: 'invalid_request_error', message } } };
}

function headerOf(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

// ---- Parameters, checked against the SDK's parameter types ----

/**
 * How the fake checks one parameter. Typed from the SDK's `…Params` types, so a spec can only name parameters Stripe
 * takes, and must mark every parameter Stripe requires as `{ required }`. The fake models the parameters Tipcard
 * sends; any other one is refused as unknown, so a new one has to be modelled here before the provider may send it.
 */
type Field<T> = FieldOf<NonNullable<T>>;
type FieldOf<T> = T extends boolean
  ? 'boolean'
  : T extends ReadonlyArray<infer E>
    ? { list: Field<E> }
    : T extends number
      ? 'integer'
      : T extends string
        ? 'string' | { oneOf: readonly string[] }
        : T extends object
          ? string extends keyof T
            ? 'metadata'
            : { fields: Params<T> }
          : never;
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type Params<T> = { [K in Exclude<keyof T, RequiredKeys<T>>]?: Field<T[K]> } & {
  [K in RequiredKeys<T>]: { required: Field<T[K]> };
};
type AnyField =
  | 'string'
  | 'integer'
  | 'boolean'
  | 'metadata'
  | { oneOf: readonly string[] }
  | { list: AnyField }
  | { fields: Record<string, unknown> }
  | { required: AnyField };

/** The languages Stripe Checkout speaks (`locale`); any other value is refused, as Stripe refuses it. */
const CHECKOUT_LOCALES = [
  'auto',
  'bg',
  'cs',
  'da',
  'de',
  'el',
  'en',
  'en-GB',
  'es',
  'es-419',
  'et',
  'fi',
  'fil',
  'fr',
  'fr-CA',
  'hi-IN',
  'hr',
  'hu',
  'id',
  'it',
  'ja',
  'ko',
  'lt',
  'lv',
  'ms',
  'mt',
  'nb',
  'nl',
  'pl',
  'pt',
  'pt-BR',
  'ro',
  'ru',
  'sk',
  'sl',
  'sv',
  'th',
  'tr',
  'vi',
  'zh',
  'zh-HK',
  'zh-TW',
] as const;

const SESSION_CREATE = {
  mode: { oneOf: ['payment', 'setup', 'subscription'] },
  line_items: {
    list: {
      fields: {
        quantity: 'integer',
        price_data: {
          fields: {
            currency: { required: 'string' },
            unit_amount: 'integer',
            product_data: { fields: { name: { required: 'string' }, description: 'string' } },
          },
        },
      },
    },
  },
  success_url: 'string',
  cancel_url: 'string',
  client_reference_id: 'string',
  metadata: 'metadata',
  payment_intent_data: {
    fields: { description: 'string', metadata: 'metadata', setup_future_usage: { oneOf: ['off_session', 'on_session'] } },
  },
  customer: 'string',
  expires_at: 'integer',
  locale: { oneOf: CHECKOUT_LOCALES },
  expand: { list: 'string' },
} satisfies Params<Stripe.Checkout.SessionCreateParams>;
type SessionCreate = Stripe.Checkout.SessionCreateParams & {
  metadata?: Record<string, string>;
  payment_intent_data?: { metadata?: Record<string, string> };
};

const CUSTOMER_CREATE = {
  email: 'string',
  metadata: 'metadata',
  expand: { list: 'string' },
} satisfies Params<Stripe.CustomerCreateParams>;
const INTENT_CREATE = {
  amount: { required: 'integer' },
  currency: { required: 'string' },
  customer: 'string',
  payment_method: 'string',
  off_session: 'boolean',
  confirm: 'boolean',
  description: 'string',
  metadata: 'metadata',
  expand: { list: 'string' },
} satisfies Params<Stripe.PaymentIntentCreateParams>;

const SESSION_LIST = {
  payment_intent: 'string',
  limit: 'integer',
  expand: { list: 'string' },
} satisfies Params<Stripe.Checkout.SessionListParams>;
const EXPAND_ONLY = { expand: { list: 'string' } } satisfies Params<
  Stripe.Checkout.SessionRetrieveParams & Stripe.PaymentIntentRetrieveParams & Stripe.ChargeRetrieveParams
>;
const REFUND_CREATE = {
  payment_intent: 'string',
  amount: 'integer',
  metadata: 'metadata',
  reason: { oneOf: ['duplicate', 'fraudulent', 'requested_by_customer'] },
  expand: { list: 'string' },
} satisfies Params<Stripe.RefundCreateParams>;
type RefundCreate = Stripe.RefundCreateParams & { metadata?: Record<string, string> | '' };

/** Decodes Stripe's form encoding (`a[b][0][c]=v`) and checks it against `spec`; answers the typed parameters. */
function parseParams<T>(form: URLSearchParams, spec: object): T {
  const tree: Record<string, unknown> = {};
  for (const [name, value] of form) {
    const [head = '', ...rest] = name.split('[');
    const keys = [head, ...rest.map((part) => part.replace(/]$/, ''))];
    let node = tree;
    for (const [index, key] of keys.entries()) {
      if (index === keys.length - 1) node[key] = value;
      else node = (node[key] ??= {}) as Record<string, unknown>;
    }
  }
  return checkFields(tree, spec as Record<string, AnyField>, '') as T;
}

function checkFields(value: unknown, fields: Record<string, AnyField>, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null) throw invalid(path, `Invalid object: ${path} must be a hash.`);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const param = path ? `${path}[${key}]` : key;
    const field = fields[key];
    if (!field) throw invalid(param, `Received unknown parameter: ${param}`, 'parameter_unknown');
    out[key] = checkField(item, typeof field === 'object' && 'required' in field ? field.required : field, param);
  }
  for (const [key, field] of Object.entries(fields)) {
    if (typeof field === 'object' && 'required' in field && !(key in out)) throw missing(path ? `${path}[${key}]` : key);
  }
  return out;
}

function checkField(value: unknown, field: AnyField, param: string): unknown {
  if (field === 'string' || (typeof field === 'object' && 'oneOf' in field)) {
    if (typeof value !== 'string') throw invalid(param, `Invalid string: ${param} must be a string.`);
    if (typeof field === 'object' && 'oneOf' in field && !field.oneOf.includes(value)) {
      throw invalid(param, `Invalid ${param}: must be one of ${field.oneOf.join(', ')}`);
    }
    return value;
  }
  if (field === 'boolean') {
    if (value !== 'true' && value !== 'false') throw invalid(param, `Invalid boolean: ${String(value)}`);
    return value === 'true';
  }
  if (field === 'integer') {
    if (typeof value !== 'string' || !/^-?\d+$/.test(value))
      throw invalid(param, `Invalid integer: ${String(value)}`, 'parameter_invalid_integer');
    return Number(value);
  }
  if (field === 'metadata') {
    if (value === '') return '';
    if (typeof value !== 'object' || value === null) throw invalid(param, `Invalid object: ${param} must be a hash.`);
    const entries = Object.entries(value);
    // Stripe's metadata limits: 50 keys, keys up to 40 characters, values up to 500.
    if (entries.length > 50) throw invalid(param, `Invalid ${param}: at most 50 keys.`);
    for (const [key, item] of entries) {
      if (typeof item !== 'string' || key.length > 40 || item.length > 500)
        throw invalid(`${param}[${key}]`, `Invalid metadata entry ${param}[${key}].`);
    }
    return value;
  }
  if ('list' in field) {
    if (typeof value !== 'object' || value === null) throw invalid(param, `Invalid array: ${param} must be an array.`);
    const items = Object.entries(value);
    if (items.some(([key], index) => key !== String(index)))
      throw invalid(param, `Invalid array: ${param} must be indexed from 0.`);
    return items.map(([key, item]) => checkField(item, field.list, `${param}[${key}]`));
  }
  if ('fields' in field) return checkFields(value, field.fields as Record<string, AnyField>, param);
  return checkField(value, field.required, param);
}

function emptyEvidence(): Stripe.Dispute.Evidence {
  return {
    access_activity_log: null,
    billing_address: null,
    cancellation_policy: null,
    cancellation_policy_disclosure: null,
    cancellation_rebuttal: null,
    customer_communication: null,
    customer_email_address: null,
    customer_name: null,
    customer_purchase_ip: null,
    customer_signature: null,
    duplicate_charge_documentation: null,
    duplicate_charge_explanation: null,
    duplicate_charge_id: null,
    enhanced_evidence: {},
    product_description: null,
    receipt: null,
    refund_policy: null,
    refund_policy_disclosure: null,
    refund_refusal_explanation: null,
    service_date: null,
    service_documentation: null,
    shipping_address: null,
    shipping_carrier: null,
    shipping_date: null,
    shipping_documentation: null,
    shipping_tracking_number: null,
    uncategorized_file: null,
    uncategorized_text: null,
  };
}

/** The wallets Checkout offers with cards (Stripe's `payment_method_details.card.wallet.type`). */
export type FakeWallet = 'apple_pay' | 'google_pay';

/**
 * A card charge's `payment_method_details` as Stripe reports it; the fingerprint names the card, like Stripe's. A
 * wallet payment is a card payment too, with `card.wallet` describing the wallet and a fingerprint of its device card.
 */
function cardDetailsOf(cardNumber: string, wallet?: FakeWallet): Stripe.Charge.PaymentMethodDetails {
  const hash = (text: string) => createHash('sha256').update(text).digest('base64url');
  return {
    type: 'card',
    card: {
      brand: cardNumber.startsWith('5') ? 'mastercard' : 'visa',
      country: 'US',
      exp_month: 12,
      exp_year: 2034,
      fingerprint: hash(wallet ? `fake-stripe-card:${wallet}:${cardNumber}` : `fake-stripe-card:${cardNumber}`).slice(0, 16),
      funding: 'credit',
      last4: cardNumber.slice(-4),
      network: cardNumber.startsWith('5') ? 'mastercard' : 'visa',
      wallet: wallet
        ? {
            type: wallet,
            [wallet]: {},
            dynamic_last4: hash(`fake-stripe-device:${wallet}:${cardNumber}`).replace(/\D/g, '').padEnd(4, '0').slice(0, 4),
          }
        : null,
    },
  } as Stripe.Charge.PaymentMethodDetails;
}
