import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type StripeObject = Record<string, any>;

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: URLSearchParams;
  headers: IncomingHttpHeaders;
}

/** A small stand-in for api.stripe.com: records every request and answers JSON shaped like Stripe's. */
export class FakeStripe {
  readonly requests: RecordedRequest[] = [];
  readonly sessions = new Map<string, StripeObject>();
  readonly paymentIntents = new Map<string, StripeObject>();
  readonly charges = new Map<string, StripeObject>();
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
        const [status, payload] = this.route(recorded);
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++this.counter}` });
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
    this.sessions.clear();
    this.paymentIntents.clear();
    this.charges.clear();
  }

  private route({ method, path, query, body }: RecordedRequest): [number, unknown] {
    let match: RegExpMatchArray | null;
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const id = `cs_test_${++this.counter}`;
      const session = {
        id,
        object: 'checkout.session',
        mode: body.get('mode'),
        url: `https://checkout.stripe.com/c/pay/${id}`,
        amount_total: Number(body.get('line_items[0][price_data][unit_amount]')),
        currency: body.get('line_items[0][price_data][currency]'),
        client_reference_id: body.get('client_reference_id'),
        metadata: bracketed(body, 'metadata'),
        status: 'open',
        payment_status: 'unpaid',
        payment_intent: null,
        expires_at: Number(body.get('expires_at')),
      };
      this.sessions.set(id, session);
      return [200, session];
    }
    if (method === 'GET' && path === '/v1/checkout/sessions') {
      const paymentIntent = query.get('payment_intent');
      const data = [...this.sessions.values()].filter((session) => session.payment_intent === paymentIntent);
      return [200, { object: 'list', url: '/v1/checkout/sessions', has_more: false, data }];
    }
    if (method === 'GET' && (match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path))) {
      return this.found(this.sessions.get(match[1]!), match[1]!);
    }
    if (method === 'GET' && (match = /^\/v1\/payment_intents\/([^/]+)$/.exec(path))) {
      const intent = this.paymentIntents.get(match[1]!);
      const expand = [...query.entries()].filter(([key]) => key.startsWith('expand')).map(([, value]) => value);
      if (intent && expand.includes('latest_charge') && typeof intent.latest_charge === 'string') {
        return [200, { ...intent, latest_charge: this.charges.get(intent.latest_charge) }];
      }
      return this.found(intent, match[1]!);
    }
    if (method === 'GET' && (match = /^\/v1\/charges\/([^/]+)$/.exec(path))) {
      return this.found(this.charges.get(match[1]!), match[1]!);
    }
    if (method === 'POST' && path === '/v1/refunds') {
      return [
        200,
        {
          id: `re_test_${++this.counter}`,
          object: 'refund',
          amount: Number(body.get('amount')),
          currency: 'eur',
          payment_intent: body.get('payment_intent'),
          metadata: bracketed(body, 'metadata'),
          status: 'succeeded',
        },
      ];
    }
    return [404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path})` } }];
  }

  private found(object: StripeObject | undefined, id: string): [number, unknown] {
    if (object) return [200, object];
    return [404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such object: '${id}'` } }];
  }
}

/** `metadata[payment_id]=…` form fields back into an object. */
function bracketed(body: URLSearchParams, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of body) {
    const match = new RegExp(`^${prefix}\\[([^\\]]+)\\]$`).exec(key);
    if (match) out[match[1]!] = value;
  }
  return out;
}

