import { describe, expect, it } from 'vitest';
import { pathFormOf } from './path-form.ts';

const card = '9b2f6b8e-2a55-4c4e-9a43-6a8f3a6c1d10';

describe('pathFormOf', () => {
  it('sends the hash form of a public page to its path form, with or without a language prefix', () => {
    expect(pathFormOf(`#/payment/${card}`)).toBe(`/payment/${card}`);
    expect(pathFormOf(`#/lv/payment/${card}`)).toBe(`/payment/${card}`);
    expect(pathFormOf(`#/payment/${card}/success?payment=p1`)).toBe(`/payment/${card}/success?payment=p1`);
    expect(pathFormOf('#/invoice/i1')).toBe('/invoice/i1');
  });

  it("leaves the app's own routes alone", () => {
    for (const hash of [
      '',
      '#/',
      '#/overview',
      '#/lv/faq',
      '#/payment',
      '#/payment/',
      '#/teams/t1/join',
      '#/card-orders/payment/success',
    ]) {
      expect(pathFormOf(hash)).toBeNull();
    }
  });
});
