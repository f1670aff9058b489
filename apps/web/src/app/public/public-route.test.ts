import { describe, expect, it } from 'vitest';
import { parsePublicRoute } from './public-route.ts';

describe('parsePublicRoute', () => {
  it('hands every /payment path to the payment pages, which read the rest', () => {
    expect(parsePublicRoute('/payment/6f1c')).toEqual({ page: 'payment' });
    expect(parsePublicRoute('/payment/6f1c/success')).toEqual({ page: 'payment' });
    expect(parsePublicRoute('/payment/walletto-result')).toEqual({ page: 'payment' });
  });

  it('reads the invoice, team and action links', () => {
    expect(parsePublicRoute('/invoice/i1')).toEqual({ page: 'invoice', invoiceId: 'i1', outcome: null });
    expect(parsePublicRoute('/invoice/i1/success')).toEqual({ page: 'invoice', invoiceId: 'i1', outcome: 'success' });
    expect(parsePublicRoute('/invoice/i1/canceled/')).toEqual({ page: 'invoice', invoiceId: 'i1', outcome: 'canceled' });
    expect(parsePublicRoute('/teams/t%201/join')).toEqual({ page: 'team-join', teamId: 't 1' });
    expect(parsePublicRoute('/actions/a1')).toEqual({ page: 'action', actionId: 'a1' });
    expect(parsePublicRoute('/venue/w1')).toEqual({ page: 'venue' });
  });

  it('reads the same links under a language prefix, which only sets the language', () => {
    expect(parsePublicRoute('/lv/payment/6f1c')).toEqual({ page: 'payment' });
    expect(parsePublicRoute('/fr/invoice/i1/success')).toEqual({ page: 'invoice', invoiceId: 'i1', outcome: 'success' });
    expect(parsePublicRoute('/es/actions/a1')).toEqual({ page: 'action', actionId: 'a1' });
    expect(parsePublicRoute('/fr/venue/w1')).toEqual({ page: 'venue' });
    expect(parsePublicRoute('/de/actions/a1')).toEqual({ page: 'unknown' });
  });

  it('knows nothing else', () => {
    expect(parsePublicRoute('/invoice')).toEqual({ page: 'unknown' });
    expect(parsePublicRoute('/invoice/i1/paid')).toEqual({ page: 'unknown' });
    expect(parsePublicRoute('/teams/t1')).toEqual({ page: 'unknown' });
    expect(parsePublicRoute('/actions/a1/extra')).toEqual({ page: 'unknown' });
    expect(parsePublicRoute('/venue')).toEqual({ page: 'unknown' });
    expect(parsePublicRoute('/venue/w1/teams')).toEqual({ page: 'unknown' });
    expect(parsePublicRoute('/public.html')).toEqual({ page: 'unknown' });
  });

  it('reads the hash under vite dev', () => {
    expect(parsePublicRoute('/public.html', '#/teams/t1/join')).toEqual({ page: 'team-join', teamId: 't1' });
    expect(parsePublicRoute('/public.html', '#/payment/6f1c?payment=p1')).toEqual({ page: 'payment' });
  });
});
