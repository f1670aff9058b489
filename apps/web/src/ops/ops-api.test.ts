import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { apiError, fakeApi } from '../test/fake-api.ts';
import { errorText, opsGet, OpsApiError, opsPost, session, setSignedOutHandler } from './ops-api.ts';

const OPERATOR = { id: '5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', email: 'finance@ops.example', role: 'finance' } as const;

afterEach(() => {
  session.clear();
  setSignedOutHandler(() => undefined);
});

describe('the back office client', () => {
  it('sends the operator’s token and the query it is given, leaving out empty parameters', async () => {
    session.save('ops-token', OPERATOR);
    const api = fakeApi({ 'GET /ops/tickets': [] });
    await opsGet(z.array(z.unknown()), '/tickets', { status: 'open', q: '', other: undefined });
    const [request] = api.sent('GET /ops/tickets');
    expect(request!.headers.get('authorization')).toBe('Bearer ops-token');
    expect(request!.query.toString()).toBe('status=open');
  });

  it('parses the answer’s data with the schema it is given', async () => {
    fakeApi({ 'POST /ops/payout-batches': { kind: 'sepa', extra: true } });
    await expect(opsPost(z.object({ kind: z.literal('sepa') }), '/payout-batches', { kind: 'sepa' })).resolves.toEqual({
      kind: 'sepa',
    });
  });

  it('throws the API’s error with its first field message and every field', async () => {
    fakeApi({
      'POST /ops/operators': apiError(422, 'validation_failed', 'Invalid data', { email: ['This e-mail is taken.'] }),
    });
    const error = await opsPost(z.unknown(), '/operators', {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpsApiError);
    expect(error).toMatchObject({ status: 422, code: 'validation_failed', fields: { email: ['This e-mail is taken.'] } });
    expect(errorText(error)).toBe('This e-mail is taken.');
  });

  it('forgets the session and says why on a 401 of a signed-in operator', async () => {
    session.save('expired-token', OPERATOR);
    const signedOut = vi.fn();
    setSignedOutHandler(signedOut);
    fakeApi({ 'GET /ops/operators': apiError(401, 'unauthenticated') });
    await expect(opsGet(z.unknown(), '/operators')).rejects.toBeInstanceOf(OpsApiError);
    expect(session.token()).toBeNull();
    expect(signedOut).toHaveBeenCalledWith(expect.stringContaining('Your session has ended'));
  });

  it('names a network failure as one', () => {
    expect(errorText(new TypeError('Failed to fetch'))).toBe('Could not reach the server. Check your connection and try again.');
  });

  it('accepts only the paths the API lists (a typo fails typecheck)', () => {
    fakeApi({});
    // @ts-expect-error: the API has no /operator route
    const typo = () => opsGet(z.unknown(), '/operator');
    // @ts-expect-error: sign-in is a POST, not a GET
    const wrongMethod = () => opsGet(z.unknown(), '/sign-in');
    expect([typo, wrongMethod]).toHaveLength(2);
  });
});
