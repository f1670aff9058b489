import { formatAmount } from '@tipcard/shared/money/format';
import { formatDate } from '@tipcard/shared/dates/format-date';
import type { z } from 'zod';
// Types only: the back office's bundle stays free of the app's client (ops-bundle.test.ts checks).
import type { ApiPath } from '../lib/api-client.ts';

/**
 * The back office's API client: the operator token lives in sessionStorage (gone with the tab), is sent as a bearer
 * header, and a 401 (idle for 30 minutes, signed out elsewhere) sends the operator back to sign-in.
 */
const TOKEN_KEY = 'tipcard-ops-token';
const OPERATOR_KEY = 'tipcard-ops-operator';

export interface SignedInOperator {
  id: string;
  email: string;
  role: 'support' | 'compliance' | 'finance' | 'admin';
}

export const session = {
  token: () => sessionStorage.getItem(TOKEN_KEY),
  operator(): SignedInOperator | null {
    const raw = sessionStorage.getItem(OPERATOR_KEY);
    return raw ? (JSON.parse(raw) as SignedInOperator) : null;
  },
  save(token: string, operator: SignedInOperator) {
    sessionStorage.setItem(TOKEN_KEY, token);
    sessionStorage.setItem(OPERATOR_KEY, JSON.stringify(operator));
  },
  clear() {
    sessionStorage.removeItem(TOKEN_KEY);
    sessionStorage.removeItem(OPERATOR_KEY);
  },
};

export class OpsApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string[]> = {},
  ) {
    super(message);
  }
}

let onSignedOut: (reason: string) => void = () => undefined;
export const setSignedOutHandler = (handler: (reason: string) => void) => {
  onSignedOut = handler;
};

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
type UnderOps<P> = P extends `/ops${infer Rest extends string}` ? Rest : never;
/** A back-office path under `/api/ops`, as the API's OpenAPI document lists it: a typo fails typecheck. */
export type OpsPath<M extends Method> = UnderOps<ApiPath<Lowercase<M>>>;

interface SendOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Query parameters; empty and undefined ones are left out. */
  query?: Record<string, string | undefined>;
}

async function send(method: Method, path: string, { body, headers = {}, query = {} }: SendOptions = {}): Promise<Response> {
  const token = session.token();
  const search = new URLSearchParams(
    Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''),
  ).toString();
  const response = await fetch(`/api/ops${path}${search ? `?${search}` : ''}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.ok) return response;
  let error = { message: `Error ${response.status}`, code: 'unknown', validation_errors: {} as Record<string, string[]> };
  try {
    error = { ...error, ...((await response.json()) as typeof error) };
  } catch {
    // Not the API's error body (a proxy's page): the status says enough.
  }
  if (response.status === 401 && token) {
    session.clear();
    onSignedOut('Your session has ended (30 minutes without activity, or signed out). Sign in again.');
  }
  const first = Object.values(error.validation_errors ?? {})[0]?.[0];
  throw new OpsApiError(response.status, error.code, first ?? error.message, error.validation_errors ?? {});
}

async function dataOf<S extends z.ZodType>(schema: S, response: Response): Promise<z.output<S>> {
  const json = (await response.json()) as { data: unknown };
  return schema.parse(json.data);
}

/** A read, its `data` parsed with the shared schema. */
export async function opsGet<S extends z.ZodType>(
  schema: S,
  path: OpsPath<'GET'>,
  query?: SendOptions['query'],
): Promise<z.output<S>> {
  return dataOf(schema, await send('GET', path, { query }));
}

/** A change, its `data` parsed with the shared schema. */
export async function opsPost<S extends z.ZodType>(
  schema: S,
  path: OpsPath<'POST'>,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<z.output<S>> {
  return dataOf(schema, await send('POST', path, { body, headers }));
}

/** A change to part of an object, its `data` parsed with the shared schema. */
export async function opsPatch<S extends z.ZodType>(schema: S, path: OpsPath<'PATCH'>, body: unknown): Promise<z.output<S>> {
  return dataOf(schema, await send('PATCH', path, { body }));
}

/** A removal, answered with no body (204): resolves when the API said yes, throws its error otherwise. */
export async function opsDelete(path: OpsPath<'DELETE'>): Promise<void> {
  await send('DELETE', path);
}

/** A call answered with no body (204): resolves when the API said yes, throws its error otherwise. */
export async function opsCheck(path: OpsPath<'GET'>): Promise<void> {
  await send('GET', path);
}

/** A file the API answers (a document, a bank file), as a blob: the call needs the bearer header. */
export async function opsBlob(path: OpsPath<'GET'>, query?: SendOptions['query']): Promise<Blob> {
  return (await send('GET', path, { query })).blob();
}

/** What went wrong, for an operator: the API's own message, or that the server could not be reached. */
export const errorText = (error: unknown): string =>
  error instanceof OpsApiError ? error.message : 'Could not reach the server. Check your connection and try again.';

/** The back office is English only; it names the currency, as its exports and the bank files do. */
export const formatCents = (cents: number) => `${formatAmount(cents)} EUR`;
export const formatTime = (iso: string | null) => (iso ? formatDate(iso, 'dateTime', 'en-GB') : '—');
