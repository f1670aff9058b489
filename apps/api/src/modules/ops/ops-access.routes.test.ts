import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../../test/test-app.ts';
import type { OperatorRole } from './ops-auth.service.ts';
import { signInOperator } from './ops.test-support.ts';

const ID = '00000000-0000-4000-8000-000000000000';
type Caller = OperatorRole | 'user' | 'none';

/**
 * Every /api/ops route with who may call it (admin may call everything). The first test proves this table lists
 * every route the API has under /api/ops, so a new route cannot skip it.
 */
const ROUTES: {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  allowed: OperatorRole[];
  payload?: object;
  headers?: Record<string, string>;
}[] = [
  { method: 'GET', url: '/api/ops/me', allowed: ['support', 'compliance', 'finance'] },
  { method: 'GET', url: '/api/ops/queues', allowed: ['support', 'compliance', 'finance'] },
  { method: 'GET', url: '/api/ops/passkeys', allowed: ['support', 'compliance', 'finance'] },
  { method: 'POST', url: '/api/ops/passkeys/options', allowed: ['support', 'compliance', 'finance'] },
  {
    method: 'POST',
    url: '/api/ops/passkeys',
    allowed: ['support', 'compliance', 'finance'],
    payload: { name: 'YubiKey', response: {} },
  },
  { method: 'DELETE', url: `/api/ops/passkeys/${ID}`, allowed: ['support', 'compliance', 'finance'] },
  { method: 'GET', url: '/api/ops/search?q=a42c5fab', allowed: ['support', 'compliance', 'finance'] },
  { method: 'GET', url: '/api/ops/operators', allowed: [] },
  { method: 'POST', url: '/api/ops/operators', allowed: [], payload: { email: 'x', role: 'support' } },
  { method: 'PATCH', url: `/api/ops/operators/${ID}`, allowed: [], payload: { role: 'finance' } },
  { method: 'POST', url: `/api/ops/operators/${ID}/reset-sign-in`, allowed: [] },
  { method: 'GET', url: '/api/ops/audit', allowed: ['compliance'] },
  { method: 'GET', url: '/api/ops/audit/export', allowed: ['compliance'] },
  { method: 'GET', url: '/api/ops/users?q=zz', allowed: ['support', 'compliance', 'finance'] },
  { method: 'GET', url: `/api/ops/users/${ID}`, allowed: ['support', 'compliance', 'finance'] },
  { method: 'GET', url: `/api/ops/venues/${ID}`, allowed: ['support', 'compliance', 'finance'] },
  { method: 'POST', url: `/api/ops/users/${ID}/block`, allowed: ['compliance'], payload: { reason: 'Fraud' } },
  { method: 'POST', url: `/api/ops/users/${ID}/unblock`, allowed: ['compliance'], payload: { reason: 'Cleared' } },
  { method: 'GET', url: '/api/ops/verifications', allowed: ['compliance'] },
  { method: 'GET', url: `/api/ops/verifications/${ID}`, allowed: ['compliance'] },
  { method: 'GET', url: `/api/ops/verifications/${ID}/documents/document_front`, allowed: ['compliance'] },
  { method: 'POST', url: `/api/ops/verifications/${ID}/decision`, allowed: ['compliance'], payload: { decision: 'approve' } },
  { method: 'GET', url: '/api/ops/payouts', allowed: ['finance'] },
  { method: 'GET', url: '/api/ops/payout-batches', allowed: ['finance'] },
  { method: 'POST', url: '/api/ops/payout-batches', allowed: ['finance'], payload: { kind: 'uk' } },
  { method: 'GET', url: `/api/ops/payout-batches/${ID}`, allowed: ['finance'] },
  { method: 'GET', url: `/api/ops/payout-batches/${ID}/file`, allowed: ['finance'] },
  { method: 'POST', url: `/api/ops/payout-batches/${ID}/sent`, allowed: ['finance'] },
  { method: 'POST', url: `/api/ops/payout-batches/${ID}/paid`, allowed: ['finance'] },
  {
    method: 'POST',
    url: `/api/ops/payout-batches/${ID}/bank-report/preview`,
    allowed: ['finance'],
    payload: { file: '<Document/>' },
  },
  { method: 'POST', url: `/api/ops/payout-batches/${ID}/bank-report`, allowed: ['finance'], payload: { file: '<Document/>' } },
  { method: 'POST', url: `/api/ops/payouts/${ID}/outcome`, allowed: ['finance'], payload: { outcome: 'paid' } },
  { method: 'GET', url: `/api/ops/payments/${ID}`, allowed: ['support', 'compliance', 'finance'] },
  {
    method: 'POST',
    url: `/api/ops/payments/${ID}/refunds`,
    allowed: ['finance'],
    payload: { amount_cents: 100, reason: 'Guest asked' },
    headers: { 'idempotency-key': 'access-test-key' },
  },
  { method: 'GET', url: '/api/ops/refund-requests', allowed: ['finance'] },
  { method: 'POST', url: `/api/ops/refund-requests/${ID}/approve`, allowed: ['finance'] },
  { method: 'POST', url: `/api/ops/refund-requests/${ID}/decline`, allowed: ['finance'], payload: { reason: 'Not owed' } },
  { method: 'GET', url: '/api/ops/ledger-health', allowed: ['finance'] },
  { method: 'GET', url: '/api/ops/tickets?status=open', allowed: ['support'] },
  { method: 'GET', url: `/api/ops/tickets/${ID}`, allowed: ['support'] },
  { method: 'GET', url: `/api/ops/tickets/${ID}/attachments/${ID}`, allowed: ['support'] },
  { method: 'POST', url: `/api/ops/tickets/${ID}/reply`, allowed: ['support'], payload: { message: 'Hello' } },
  { method: 'POST', url: `/api/ops/tickets/${ID}/close`, allowed: ['support'] },
  { method: 'POST', url: `/api/ops/tickets/${ID}/reopen`, allowed: ['support'] },
  { method: 'GET', url: '/api/ops/card-orders?status=placed', allowed: ['support'] },
  { method: 'GET', url: `/api/ops/card-orders/${ID}/print-file`, allowed: ['support'] },
  {
    method: 'POST',
    url: `/api/ops/card-orders/${ID}/status`,
    allowed: ['support'],
    payload: { status: 'shipped', tracking_reference: 'RR123456789LV' },
  },
  { method: 'POST', url: `/api/ops/card-orders/${ID}/cancel`, allowed: ['support'] },
  // Last: it ends the caller's session.
  { method: 'POST', url: '/api/ops/sign-out', allowed: ['support', 'compliance', 'finance'] },
];
/** Routes for people without a token yet. */
const PUBLIC = [
  'POST /api/ops/sign-in',
  'POST /api/ops/sign-in/passkey/options',
  'POST /api/ops/sign-in/passkey',
  'GET /api/ops/enrolment/{token}',
  'POST /api/ops/enrolment/{token}',
  'GET /api/ops/setup/{token}',
  'POST /api/ops/setup/{token}',
];

describe('back office roles', () => {
  let t: TestApp;
  const tokens = {} as Record<Caller, string | undefined>;
  beforeAll(async () => {
    t = await createTestApp();
    for (const role of ['support', 'compliance', 'finance', 'admin'] as const)
      tokens[role] = (await signInOperator(t, role)).opsToken;
    tokens.user = (await signUp(t)).jwt;
    tokens.none = undefined;
  });
  afterAll(() => t.close());

  it('the table covers every /api/ops route', () => {
    const document = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const inApi = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/api/ops/'))
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    const template = (url: string) =>
      url.split('?')[0]!.replace(ID, '{id}').replace(ID, '{attachmentId}').replace('document_front', '{field}');
    const inTable = [...ROUTES.map((route) => `${route.method} ${template(route.url)}`), ...PUBLIC].sort();
    expect(inTable).toEqual(inApi);
  });

  it('each caller reaches exactly its role’s routes: 401 without an operator token, 403 for another role', async () => {
    const callers: Caller[] = ['support', 'compliance', 'finance', 'admin', 'user', 'none'];
    const outcome: string[] = [];
    const expected: string[] = [];
    for (const route of ROUTES) {
      for (const caller of callers) {
        const answer = await t.call({
          method: route.method,
          url: route.url,
          token: tokens[caller],
          payload: route.payload,
          headers: route.headers,
        });
        const allowed = caller === 'admin' || (route.allowed as string[]).includes(caller);
        const want = caller === 'user' || caller === 'none' ? 401 : allowed ? 'through' : 403;
        const got = answer.status === 401 || answer.status === 403 ? answer.status : 'through';
        outcome.push(`${route.method} ${route.url} as ${caller}: ${got}`);
        expected.push(`${route.method} ${route.url} as ${caller}: ${want}`);
        expect(answer.status, `${route.method} ${route.url} as ${caller}`).toBeLessThan(500);
        if (got === 'through') expect(answer.headers['cache-control'], `${route.method} ${route.url}`).toContain('no-store');
      }
    }
    expect(outcome).toEqual(expected);
  });
});
