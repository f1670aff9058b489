import { describe, expect, it } from 'vitest';
import { localePrefixOf } from '../../lib/is-locale.ts';
import { parseTipRoute, tipRoutePath } from './tip-route.ts';

const card = '9b2f6b8e-2a55-4c4e-9a43-6a8f3a6c1d10';

describe('payment routes', () => {
  it('reads the path forms the server answers', () => {
    expect(parseTipRoute(`/payment/${card}`, '')).toEqual({ page: 'form', cardId: card });
    expect(parseTipRoute(`/payment/${card}/`, '')).toEqual({ page: 'form', cardId: card });
    expect(parseTipRoute(`/payment/${card}/success`, '?payment=p1')).toEqual({ page: 'success', cardId: card, paymentId: 'p1' });
    expect(parseTipRoute(`/payment/${card}/canceled`, '?payment=p1')).toEqual({
      page: 'canceled',
      cardId: card,
      paymentId: 'p1',
    });
    expect(parseTipRoute(`/payment/${card}/failed`, '?payment=p1')).toEqual({ page: 'failed', cardId: card, paymentId: 'p1' });
    expect(parseTipRoute(`/payment/${card}/timeout`, '?payment=p1')).toEqual({ page: 'timeout', cardId: card, paymentId: 'p1' });
    expect(parseTipRoute('/payment/walletto-result', '?payment=p1')).toEqual({ page: 'result', paymentId: 'p1' });
    expect(parseTipRoute('/payment/walletto-result', '')).toEqual({ page: 'result', paymentId: null });
  });

  it('reads a path under a language prefix as the same route', () => {
    expect(parseTipRoute('/lv/payment/c1', '')).toEqual({ page: 'form', cardId: 'c1' });
    expect(parseTipRoute('/es/payment/c1/success', '?payment=p1')).toEqual({ page: 'success', cardId: 'c1', paymentId: 'p1' });
  });

  it('answers unknown for anything else', () => {
    expect(parseTipRoute('/public.html', '')).toEqual({ page: 'unknown' });
    expect(parseTipRoute(`/payment/${card}/refund`, '')).toEqual({ page: 'unknown' });
    expect(parseTipRoute(`/payment/${card}/success/x`, '')).toEqual({ page: 'unknown' });
  });

  it('reads the same route after a hash under vite dev', () => {
    expect(parseTipRoute('/public.html', '', `#/payment/${card}/success?payment=p2`)).toEqual({
      page: 'success',
      cardId: card,
      paymentId: 'p2',
    });
  });

  it('writes routes back to their paths', () => {
    expect(tipRoutePath({ page: 'form', cardId: card })).toBe(`/payment/${card}`);
    expect(tipRoutePath({ page: 'success', cardId: card, paymentId: 'p1' })).toBe(`/payment/${card}/success?payment=p1`);
    expect(tipRoutePath({ page: 'failed', cardId: card, paymentId: 'p1' })).toBe(`/payment/${card}/failed?payment=p1`);
    expect(tipRoutePath({ page: 'result', paymentId: null })).toBe('/payment/walletto-result');
  });

  it('keeps the language prefix the guest came by, which decides the language of the page on reload', () => {
    expect(tipRoutePath({ page: 'success', cardId: card, paymentId: 'p1' }, '/fr')).toBe(
      `/fr/payment/${card}/success?payment=p1`,
    );
    expect(tipRoutePath({ page: 'result', paymentId: 'p1' }, '/es')).toBe('/es/payment/walletto-result?payment=p1');
    expect(localePrefixOf('/lv/payment/abc')).toBe('/lv');
    expect(localePrefixOf('/payment/abc')).toBe('');
    expect(localePrefixOf('/lv')).toBe('');
  });
});
