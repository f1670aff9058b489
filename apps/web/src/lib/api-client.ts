import type { z } from 'zod';
import type { ApiErrorBody } from '@tipcard/shared/errors/error-codes';
import type { Tokens } from '@tipcard/shared/auth/schemas';
import type { paths } from './api-types.gen.ts';
import { clearAccessToken, clearTokens, getAccessToken, getRefreshToken, saveTokens } from './tokens.ts';
import { openModal, showFatalError, showSnackbar } from './ui-store.ts';
import { ApiError, apiErrorText } from './api-errors.ts';
import { currentLocale, i18n } from './i18n.ts';

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/** `/api/clients/{clientId}/cards` → `/clients/${string}/cards`: a path as the client writes it, under the base URL. */
type Filled<P extends string> = P extends `${infer Head}{${string}}${infer Tail}` ? `${Head}${string}${Filled<Tail>}` : P;
type UnderApi<P> = P extends `/api${infer Rest extends string}` ? Filled<Rest> : never;

/** The paths the API's OpenAPI document (api-types.gen.ts) lists for a method: a typo or a removed route fails typecheck. */
export type ApiPath<M extends Method> = {
  [P in keyof paths]: paths[P] extends Record<M, object> ? UnderApi<P> : never;
}[keyof paths];

/** The shared zod schema of an answer's `data`, or null for a call whose answer the app does not read. */
type AnswerSchema = z.ZodType | null;
type Answer<S extends AnswerSchema> = S extends z.ZodType ? z.output<S> : void;

interface RequestOptions {
  method: Uppercase<Method>;
  body?: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string | undefined>;
  /** `none`: the caller maps every error itself (the auth forms); no snackbar, modal or error page. */
  errorHandling?: 'default' | 'none';
  /** Send the bearer token and take part in the 401 refresh-and-replay (true by default). */
  auth?: boolean;
  responseType?: 'json' | 'blob';
  signal?: AbortSignal;
}

export interface TokenStore {
  getAccess(): string | null;
  getRefresh(): string | null;
  save(tokens: Tokens): void;
  clearAccess(): void;
  clearAll(): void;
}

export interface ErrorHandlers {
  /** The refresh failed: cookies are already cleared; say the session ended and go to the log-in form. */
  authFailure(): void;
  /** 451: open the verification modal. */
  verificationRequired(): void;
  /** 400/403/422/429: a red snackbar. */
  apiError(error: ApiError): void;
  /** Any other status: the error page. */
  fatal(error: ApiError): void;
}

export interface ApiClientOptions {
  baseUrl: string;
  fetch?: typeof fetch;
  tokens: TokenStore;
  handlers: ErrorHandlers;
}

export type ApiClient = ReturnType<typeof createApiClient>;
type CallOptions = Omit<RequestOptions, 'method' | 'body' | 'responseType'>;

const SNACKBAR_STATUSES = new Set([400, 403, 422, 429]);

function isErrorBody(value: unknown): value is ApiErrorBody {
  return typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string';
}

async function readErrorBody(response: Response): Promise<ApiErrorBody | null> {
  try {
    const json: unknown = await response.json();
    if (!isErrorBody(json)) return null;
    return {
      message: json.message,
      code: json.code,
      errors: Array.isArray(json.errors) ? json.errors : [],
      validation_errors: json.validation_errors && typeof json.validation_errors === 'object' ? json.validation_errors : {},
    };
  } catch {
    return null;
  }
}

function retryAfterSeconds(response: Response): number | null {
  const value = response.headers.get('Retry-After');
  if (!value) return null;
  const seconds = Number(value);
  return Number.isFinite(seconds) ? seconds : null;
}

export function createApiClient(options: ApiClientOptions) {
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const { tokens, handlers } = options;
  let refreshing: Promise<boolean> | null = null;

  function url(path: string, query?: Record<string, string | undefined>): string {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) search.set(key, value);
    const qs = search.toString();
    return `${options.baseUrl}${path}${qs ? `?${qs}` : ''}`;
  }

  function send(path: string, opts: RequestOptions, token: string | null): Promise<Response> {
    const headers: Record<string, string> = {
      Accept: opts.responseType === 'blob' ? 'image/png' : 'application/json',
      ...opts.headers,
    };
    if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = `Bearer ${token}`;
    // The app's language, not the browser's: SMS, CSV exports and history lines are written in it.
    headers['Accept-Language'] ??= currentLocale();
    return doFetch(url(path, opts.query), {
      method: opts.method ?? 'GET',
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      credentials: 'same-origin',
      signal: opts.signal,
    });
  }

  async function refresh(): Promise<boolean> {
    const refreshToken = tokens.getRefresh();
    try {
      const response = await doFetch(url('/refresh-token'), {
        method: 'POST',
        // The app's language: the server keeps it as the one the user's texts are written in (decision 0032).
        headers: { Accept: 'application/json', 'Content-Type': 'application/json', 'Accept-Language': currentLocale() },
        body: JSON.stringify(refreshToken ? { refreshToken } : {}),
        credentials: 'same-origin',
      });
      if (!response.ok) throw new Error(`refresh failed: ${response.status}`);
      const json = (await response.json()) as { data?: unknown };
      tokens.save(parseTokens(json.data));
      return true;
    } catch {
      tokens.clearAll();
      handlers.authFailure();
      return false;
    }
  }

  /** Every 401 that arrives while a refresh runs waits on the same promise: one refresh for all of them. */
  function sharedRefresh(): Promise<boolean> {
    refreshing ??= refresh().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  function handle(error: ApiError): void {
    if (error.status === 451) handlers.verificationRequired();
    else if (SNACKBAR_STATUSES.has(error.status)) handlers.apiError(error);
    else handlers.fatal(error);
  }

  /** An error of ours, not the server's: shown like an answer that never came (the error page), unless the caller maps it. */
  function failed(opts: RequestOptions, cause?: unknown): ApiError {
    const error = new ApiError(500, null, null, cause);
    if (opts.errorHandling !== 'none') handle(error);
    return error;
  }

  /** A 2xx answer, after the 401 refresh-and-replay; any other answer is handled (unless errorHandling none) and thrown. */
  async function fetchAnswer(path: string, opts: RequestOptions): Promise<Response> {
    const useAuth = opts.auth !== false;
    const token = useAuth ? tokens.getAccess() : null;
    let response: Response | null = await send(path, opts, token).catch(rethrowAbort);

    if (response?.status === 401 && useAuth) {
      const current = tokens.getAccess();
      let refreshed: boolean;
      if (current && current !== token) {
        refreshed = true; // another request already refreshed while this one was in flight
      } else {
        tokens.clearAccess();
        refreshed = await sharedRefresh();
      }
      if (!refreshed) throw new ApiError(401, null);
      response = await send(path, opts, tokens.getAccess()).catch(rethrowAbort);
      if (response?.status === 401) {
        tokens.clearAll();
        handlers.authFailure();
        throw new ApiError(401, await readErrorBody(response));
      }
    }

    if (!response) throw failed(opts);
    if (response.ok) return response;

    const error = new ApiError(response.status, await readErrorBody(response), retryAfterSeconds(response));
    if (opts.errorHandling !== 'none') handle(error);
    throw error;
  }

  /** The answer's `data`, parsed with the shared schema: an answer that does not match it is a 'Something went wrong'. */
  async function request<S extends AnswerSchema>(path: string, opts: RequestOptions, schema: S): Promise<Answer<S>> {
    const response = await fetchAnswer(path, opts);
    if (schema === null) return undefined as Answer<S>;
    const json: unknown = await response.json().catch((error: unknown) => {
      // Cancelled while the answer was read (a query whose filters changed): no answer is wanted, nothing went wrong.
      if (isAbort(error)) throw error;
      throw failed(opts, error);
    });
    const parsed = schema.safeParse((json as { data?: unknown } | null)?.data);
    if (!parsed.success) throw failed(opts, parsed.error);
    return parsed.data as Answer<S>;
  }

  return {
    get: <S extends AnswerSchema>(path: ApiPath<'get'>, schema: S, opts?: CallOptions) =>
      request(path, { ...opts, method: 'GET' }, schema),
    /** A file answer (QR image, PDF, CSV); `Accept` says which. */
    getBlob: async (path: ApiPath<'get'>, opts?: CallOptions) =>
      (await fetchAnswer(path, { ...opts, method: 'GET', responseType: 'blob' })).blob(),
    /**
     * A response read as it arrives (the live events' text/event-stream), after the same bearer header and 401 refresh as
     * every call; errors are the caller's, which reconnects rather than showing them.
     */
    stream: (path: ApiPath<'get'>, opts: { headers?: Record<string, string>; signal: AbortSignal }) =>
      fetchAnswer(path, { ...opts, method: 'GET', errorHandling: 'none' }),
    post: <S extends AnswerSchema>(path: ApiPath<'post'>, body: unknown, schema: S, opts?: CallOptions) =>
      request(path, { ...opts, method: 'POST', body: body ?? {} }, schema),
    patch: <S extends AnswerSchema>(path: ApiPath<'patch'>, body: unknown, schema: S, opts?: CallOptions) =>
      request(path, { ...opts, method: 'PATCH', body }, schema),
    put: <S extends AnswerSchema>(path: ApiPath<'put'>, body: unknown, schema: S, opts?: CallOptions) =>
      request(path, { ...opts, method: 'PUT', body }, schema),
    /** `body`: what names the thing removed when the path cannot (a push endpoint, which must not sit in a URL). */
    delete: <S extends AnswerSchema>(path: ApiPath<'delete'>, schema: S, opts?: CallOptions & { body?: unknown }) =>
      request(path, { ...opts, method: 'DELETE' }, schema),
  };
}

/** The refresh answer must carry both tokens (kept free of zod so the entry chunk stays small). */
function parseTokens(data: unknown): Tokens {
  const value = data as Partial<Tokens> | null | undefined;
  if (typeof value?.jwt !== 'string' || typeof value.refresh_token !== 'string' || !value.jwt || !value.refresh_token) {
    throw new Error('refresh answer without tokens');
  }
  return { jwt: value.jwt, refresh_token: value.refresh_token };
}

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

function rethrowAbort(error: unknown): null {
  if (isAbort(error)) throw error;
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// The application's client: tokens from the cookies, errors shown through the UI store.

let signedOutHandler: () => void = () => {
  window.location.hash = '#/';
};

/** The app router registers how to go to index after a failed refresh (and to drop cached data). */
export function setSignedOutHandler(handler: () => void): void {
  signedOutHandler = handler;
}

export const api = createApiClient({
  baseUrl: (import.meta.env.VITE_API_URL as string | undefined) ?? '/api',
  tokens: {
    getAccess: getAccessToken,
    getRefresh: getRefreshToken,
    save: saveTokens,
    clearAccess: clearAccessToken,
    clearAll: clearTokens,
  },
  handlers: {
    authFailure() {
      showSnackbar(i18n.t('errors:authorization_error'));
      signedOutHandler();
    },
    verificationRequired() {
      openModal('verification');
    },
    apiError(error) {
      showSnackbar(apiErrorText(error));
    },
    fatal(error) {
      showFatalError(error.status);
    },
  },
});
