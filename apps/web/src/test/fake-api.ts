import { onTestFinished, vi } from 'vitest';

/** One request the page sent, as the fake API saw it. */
export interface SentRequest {
  method: string;
  /** The path under /api, without the query ("/clients/c1/donations"). */
  path: string;
  query: URLSearchParams;
  headers: Headers;
  /** The JSON body, parsed; undefined without one. */
  body: unknown;
}

/** An answer other than `{ data }` with 200: an error body, a status without a body, or a file. */
export class Answer {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** An error answer in the API's shape (`{ message, code, errors, validation_errors }`). */
export function apiError(
  status: number,
  code: string,
  message = code,
  validationErrors: Record<string, string[]> = {},
  headers: Record<string, string> = {},
): Answer {
  return new Answer(status, { message, code, errors: [message], validation_errors: validationErrors }, headers);
}

/** An answer that never comes: the page stays in its loading state. */
export const pending = (): Promise<never> => new Promise<never>(() => undefined);

type Reply = unknown;
type Handler = Reply | ((request: SentRequest) => Reply | Promise<Reply>);

/**
 * Replaces `fetch` for one test with a table of routes, keyed "METHOD /path" (the path under /api, no query). A value
 * answers `{ data: value }` with 200, an `Answer` answers as it says, a function decides per request (and may return
 * `pending()`). A request no route names fails the test when it ends, so a page cannot call what the test forgot.
 */
export function fakeApi(routes: Record<string, Handler>) {
  const calls: SentRequest[] = [];
  const unmatched: string[] = [];

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://tipcard.test');
    const method = (init.method ?? 'GET').toUpperCase();
    const path = url.pathname.replace(/^\/api/, '');
    const rawBody = typeof init.body === 'string' ? init.body : undefined;
    const request: SentRequest = {
      method,
      path,
      query: url.searchParams,
      headers: new Headers(init.headers),
      body: rawBody === undefined || rawBody === '' ? undefined : JSON.parse(rawBody),
    };
    calls.push(request);
    const key = `${method} ${path}`;
    if (!(key in routes)) {
      unmatched.push(key);
      return jsonResponse(404, { message: `No fake route for ${key}`, code: 'not_found', errors: [], validation_errors: {} });
    }
    const handler = routes[key];
    const reply = typeof handler === 'function' ? await (handler as (request: SentRequest) => Reply)(request) : handler;
    if (reply instanceof Answer) {
      // jsdom's Blob is not the one Node's Response reads: its bytes go instead.
      if (reply.body instanceof Blob)
        return new Response(await reply.body.arrayBuffer(), { status: reply.status, headers: reply.headers });
      return jsonResponse(reply.status, reply.body, reply.headers);
    }
    return jsonResponse(200, { data: reply });
  });

  vi.stubGlobal('fetch', fetchMock);
  onTestFinished(() => {
    vi.unstubAllGlobals();
    if (unmatched.length > 0) throw new Error(`The page called routes the test did not fake: ${unmatched.join(', ')}`);
  });

  return {
    calls,
    /** The requests sent to one route, in order. */
    sent: (key: string) => calls.filter((call) => `${call.method} ${call.path}` === key),
  };
}

function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  if (status === 204 || status === 304) return new Response(null, { status, headers });
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}
