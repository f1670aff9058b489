import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { Tokens } from '@tipcard/shared/auth/schemas';
import { createApiClient, type ErrorHandlers, type TokenStore } from './api-client.ts';
import { ApiError, apiErrorText } from './api-errors.ts';
import { i18n, loadLocale } from './i18n.ts';

/** These tests are about the transport, not the answers' shapes. */
const ANY = z.unknown();

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

const errorBody = (message: string, code = 'forbidden', extra: Record<string, unknown> = {}) => ({
  message,
  code,
  errors: [message],
  validation_errors: {},
  ...extra,
});

function memoryTokens(initial: { access: string | null; refresh: string | null }) {
  const state = { ...initial };
  const store: TokenStore & { state: typeof state } = {
    state,
    getAccess: () => state.access,
    getRefresh: () => state.refresh,
    save: (tokens: Tokens) => {
      state.access = tokens.jwt;
      state.refresh = tokens.refresh_token;
    },
    clearAccess: () => {
      state.access = null;
    },
    clearAll: () => {
      state.access = null;
      state.refresh = null;
    },
  };
  return store;
}

function handlers() {
  const fakes = {
    authFailure: vi.fn<() => void>(),
    verificationRequired: vi.fn<() => void>(),
    apiError: vi.fn<(error: ApiError) => void>(),
    fatal: vi.fn<(error: ApiError) => void>(),
  };
  return fakes satisfies ErrorHandlers;
}

type Route = (request: { url: string; init: RequestInit; auth: string | undefined }) => Response | Promise<Response>;

function fakeFetch(route: Route) {
  return vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const headers = (init.headers ?? {}) as Record<string, string>;
    return route({ url: String(input), init, auth: headers.Authorization });
  });
}

describe('api client', () => {
  it('sends the bearer token from the token store and unwraps data', async () => {
    const fetch = fakeFetch(({ auth }) => json(200, { data: { auth } }));
    const client = createApiClient({
      baseUrl: '/api',
      fetch,
      tokens: memoryTokens({ access: 'A', refresh: 'R' }),
      handlers: handlers(),
    });
    await expect(client.get('/me', ANY)).resolves.toEqual({ auth: 'Bearer A' });
    expect(fetch.mock.calls[0]?.[0]).toBe('/api/me');
  });

  it('on 401 refreshes once for all concurrent requests, then replays each of them', async () => {
    let refreshCalls = 0;
    let releaseRefresh!: () => void;
    const refreshGate = new Promise<void>((resolve) => (releaseRefresh = resolve));
    const fetch = fakeFetch(async ({ url, init, auth }) => {
      if (url === '/api/refresh-token') {
        refreshCalls += 1;
        expect(JSON.parse(String(init.body))).toEqual({ refreshToken: 'R1' });
        await refreshGate;
        return json(200, { data: { jwt: 'A2', refresh_token: 'R2' } });
      }
      if (auth !== 'Bearer A2') return json(401, errorBody('Authorization Error!', 'unauthorized'));
      return json(200, { data: url });
    });
    const tokens = memoryTokens({ access: 'A1', refresh: 'R1' });
    const h = handlers();
    const client = createApiClient({ baseUrl: '/api', fetch, tokens, handlers: h });

    const requests = Promise.all([
      client.get('/me', ANY),
      client.get('/clients/1/cards', ANY),
      client.get('/clients/1/account', ANY),
    ]);
    await vi.waitFor(() => expect(refreshCalls).toBe(1));
    releaseRefresh();

    await expect(requests).resolves.toEqual(['/api/me', '/api/clients/1/cards', '/api/clients/1/account']);
    expect(refreshCalls).toBe(1);
    expect(tokens.state).toEqual({ access: 'A2', refresh: 'R2' });
    expect(h.authFailure).not.toHaveBeenCalled();
  });

  it('replays without a new refresh when another request already refreshed the token', async () => {
    let refreshCalls = 0;
    const tokens = memoryTokens({ access: 'A1', refresh: 'R1' });
    const fetch = fakeFetch(({ url, auth }) => {
      if (url === '/api/refresh-token') {
        refreshCalls += 1;
        return json(200, { data: { jwt: 'A2', refresh_token: 'R2' } });
      }
      if (auth === 'Bearer A1') {
        tokens.state.access = 'A2'; // refreshed meanwhile by someone else
        return json(401, errorBody('Authorization Error!', 'unauthorized'));
      }
      return json(200, { data: 'ok' });
    });
    const client = createApiClient({ baseUrl: '/api', fetch, tokens, handlers: handlers() });
    await expect(client.get('/me', ANY)).resolves.toBe('ok');
    expect(refreshCalls).toBe(0);
  });

  it('when the refresh fails: clears the tokens, reports the auth failure once and rejects every waiting request', async () => {
    const fetch = fakeFetch(({ url }) =>
      url === '/api/refresh-token'
        ? json(401, errorBody('Authorization Error!', 'unauthorized'))
        : json(401, errorBody('Authorization Error!', 'unauthorized')),
    );
    const tokens = memoryTokens({ access: 'A1', refresh: 'R1' });
    const h = handlers();
    const client = createApiClient({ baseUrl: '/api', fetch, tokens, handlers: h });

    const results = await Promise.allSettled([client.get('/me', ANY), client.get('/clients/1/cards', ANY)]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason).toBeInstanceOf(ApiError);
    expect(tokens.state).toEqual({ access: null, refresh: null });
    expect(h.authFailure).toHaveBeenCalledTimes(1);
    expect(h.fatal).not.toHaveBeenCalled();
    expect(fetch.mock.calls.filter(([url]) => url === '/api/refresh-token')).toHaveLength(1);
  });

  it('when the replay answers 401 again, signs out', async () => {
    const fetch = fakeFetch(({ url }) =>
      url === '/api/refresh-token'
        ? json(200, { data: { jwt: 'A2', refresh_token: 'R2' } })
        : json(401, errorBody('Authorization Error!', 'unauthorized')),
    );
    const tokens = memoryTokens({ access: 'A1', refresh: 'R1' });
    const h = handlers();
    const client = createApiClient({ baseUrl: '/api', fetch, tokens, handlers: h });
    await expect(client.get('/me', ANY)).rejects.toMatchObject({ status: 401 });
    expect(h.authFailure).toHaveBeenCalledTimes(1);
    expect(tokens.state.access).toBeNull();
  });

  it('opens the verification modal on 451', async () => {
    const fetch = fakeFetch(() => json(451, errorBody('Verification required', 'verification_required')));
    const h = handlers();
    const client = createApiClient({ baseUrl: '/api', fetch, tokens: memoryTokens({ access: 'A', refresh: 'R' }), handlers: h });
    await expect(client.post('/clients/1/payouts', {}, ANY)).rejects.toMatchObject({ status: 451 });
    expect(h.verificationRequired).toHaveBeenCalledTimes(1);
    expect(h.apiError).not.toHaveBeenCalled();
    expect(h.fatal).not.toHaveBeenCalled();
  });

  it.each([400, 403, 422, 429])('shows a snackbar for %i', async (status) => {
    const fetch = fakeFetch(() => json(status, errorBody('Wrong amount', 'validation_failed')));
    const h = handlers();
    const client = createApiClient({ baseUrl: '/api', fetch, tokens: memoryTokens({ access: 'A', refresh: 'R' }), handlers: h });
    await expect(client.post('/clients/1/payouts', {}, ANY)).rejects.toMatchObject({ status });
    expect(h.apiError).toHaveBeenCalledTimes(1);
    expect(h.fatal).not.toHaveBeenCalled();
  });

  it.each([404, 500, 503])('shows the error page for %i', async (status) => {
    const fetch = fakeFetch(() => json(status, errorBody('Something went wrong', 'internal')));
    const h = handlers();
    const client = createApiClient({ baseUrl: '/api', fetch, tokens: memoryTokens({ access: 'A', refresh: 'R' }), handlers: h });
    await expect(client.get('/me', ANY)).rejects.toMatchObject({ status });
    expect(h.fatal).toHaveBeenCalledWith(expect.objectContaining({ status }));
    expect(h.apiError).not.toHaveBeenCalled();
  });

  it('treats a request that got no answer as a 500', async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const h = handlers();
    const client = createApiClient({ baseUrl: '/api', fetch, tokens: memoryTokens({ access: 'A', refresh: 'R' }), handlers: h });
    await expect(client.get('/me', ANY)).rejects.toMatchObject({ status: 500 });
    expect(h.fatal).toHaveBeenCalledTimes(1);
  });

  it('lets a call cancelled while its answer is read (a filter changed) end quietly, never as the error page', async () => {
    const controller = new AbortController();
    // The headers came; the body is still on its way when the query is cancelled, as a stream aborts.
    const fetch = vi.fn(async (_input: RequestInfo | URL, init: RequestInit = {}) => {
      const body = new ReadableStream({
        start(stream) {
          stream.enqueue(new TextEncoder().encode('{"data":'));
          init.signal?.addEventListener('abort', () =>
            stream.error(new DOMException('The user aborted a request.', 'AbortError')),
          );
        },
      });
      return new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } });
    });
    const h = handlers();
    const client = createApiClient({ baseUrl: '/api', fetch, tokens: memoryTokens({ access: 'A', refresh: 'R' }), handlers: h });
    const answer = client.get('/me', ANY, { signal: controller.signal });
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    controller.abort();
    await expect(answer).rejects.toMatchObject({ name: 'AbortError' });
    expect(h.fatal).not.toHaveBeenCalled();
  });

  it('leaves every error to the caller with errorHandling none, and never refreshes for auth: false calls', async () => {
    const fetch = fakeFetch(() => json(403, errorBody('Wrong confirmation code', 'wrong_code')));
    const h = handlers();
    const client = createApiClient({
      baseUrl: '/api',
      fetch,
      tokens: memoryTokens({ access: null, refresh: null }),
      handlers: h,
    });
    const error = await client.post('/login_check', {}, ANY, { errorHandling: 'none', auth: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).body?.message).toBe('Wrong confirmation code');
    expect(Object.values(h).every((fn) => fn.mock.calls.length === 0)).toBe(true);
  });

  it('reads Retry-After', async () => {
    const fetch = fakeFetch(() => json(429, errorBody('Wait 42 seconds', 'resend_wait'), { 'Retry-After': '42' }));
    const client = createApiClient({
      baseUrl: '/api',
      fetch,
      tokens: memoryTokens({ access: null, refresh: null }),
      handlers: handlers(),
    });
    await expect(client.post('/request-otp', {}, ANY, { errorHandling: 'none' })).rejects.toMatchObject({
      status: 429,
      retryAfter: 42,
    });
  });
});

describe('answers parsed with the shared schemas', () => {
  const me = z.object({ id: z.string(), verification_required: z.boolean() });
  const client = (body: unknown, h = handlers()) =>
    createApiClient({
      baseUrl: '/api',
      fetch: fakeFetch(() => json(200, body)),
      tokens: memoryTokens({ access: 'A', refresh: 'R' }),
      handlers: h,
    });

  it('answers the parsed data, without the fields the schema does not name', async () => {
    await expect(client({ data: { id: 'u1', verification_required: false, extra: 1 } }).get('/me', me)).resolves.toEqual({
      id: 'u1',
      verification_required: false,
    });
  });

  it("shows 'Something went wrong' for an answer that breaks its schema, keeping the zod error as the cause", async () => {
    const h = handlers();
    const error = await client({ data: { id: 'u1', verification_required: 'no' } }, h)
      .get('/me', me)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 500 });
    expect((error as ApiError).cause).toBeInstanceOf(z.ZodError);
    expect(h.fatal).toHaveBeenCalledWith(error);
    expect(h.apiError).not.toHaveBeenCalled();
  });

  it('treats an answer without data, or not JSON at all, the same way', async () => {
    const h = handlers();
    await expect(client({ message: 'ok' }, h).get('/me', me)).rejects.toMatchObject({ status: 500 });
    const notJson = createApiClient({
      baseUrl: '/api',
      fetch: fakeFetch(() => new Response('<html>', { status: 200 })),
      tokens: memoryTokens({ access: 'A', refresh: 'R' }),
      handlers: h,
    });
    await expect(notJson.get('/me', me)).rejects.toMatchObject({ status: 500 });
    expect(h.fatal).toHaveBeenCalledTimes(2);
  });

  it('leaves a broken answer to the caller with errorHandling none', async () => {
    const h = handlers();
    await expect(client({ data: {} }, h).post('/login_check', {}, me, { errorHandling: 'none' })).rejects.toMatchObject({
      status: 500,
    });
    expect(h.fatal).not.toHaveBeenCalled();
  });

  it('does not read the answer of a call made with a null schema, and hands files over as blobs', async () => {
    await expect(client('not even an object').post('/contact', {}, null)).resolves.toBeUndefined();
    const files = createApiClient({
      baseUrl: '/api',
      fetch: fakeFetch(() => new Response('a,b\n', { status: 200, headers: { 'Content-Type': 'text/csv' } })),
      tokens: memoryTokens({ access: 'A', refresh: 'R' }),
      handlers: handlers(),
    });
    await expect((await files.getBlob('/clients/1/transactions.csv')).text()).resolves.toBe('a,b\n');
  });
});

describe('apiErrorText', () => {
  const en = async <T>(run: () => T) => {
    await i18n.changeLanguage('en');
    return run();
  };

  it("shows 'Api Error!' when the body has no errors", async () => {
    expect(await en(() => apiErrorText(new ApiError(400, null)))).toBe('Api Error!');
    expect(
      await en(() =>
        apiErrorText(new ApiError(422, { message: 'x', code: 'validation_failed', errors: [], validation_errors: {} })),
      ),
    ).toBe('Api Error!');
  });

  it('translates known server texts and keeps unknown ones', async () => {
    const body = (text: string, code = 'validation_failed') => ({
      message: text,
      code: code as never,
      errors: [text],
      validation_errors: {},
    });
    expect(await en(() => apiErrorText(new ApiError(422, body('This value should not be blank.'))))).toBe(
      'This field is required',
    );
    expect(await en(() => apiErrorText(new ApiError(429, body('Wait 17 seconds', 'resend_wait'), 17)))).toBe('Wait 17 seconds');
    expect(await en(() => apiErrorText(new ApiError(400, body('Minimum withdrawal amount 3 EUR'))))).toBe(
      'Minimum withdrawal amount 3 EUR',
    );

    await loadLocale('lv');
    await i18n.changeLanguage('lv');
    expect(apiErrorText(new ApiError(422, body('This value should not be blank.')))).toBe('Šis lauks ir obligāts');
    expect(apiErrorText(new ApiError(429, body('Wait 17 seconds', 'resend_wait'), 17))).toBe('Uzgaidiet 17 sekundes');
    expect(apiErrorText(new ApiError(403, body('User not found', 'user_not_found')))).toBe('Lietotājs nav atrasts');
    await i18n.changeLanguage('en');
  });
});
