import { formatAmount } from '@tipcard/shared/money/format';
import { formatDate } from '@tipcard/shared/dates/format-date';
import type { z } from 'zod';

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

async function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const token = session.token();
  const response = await fetch(`/api/ops${path}`, {
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

/** A JSON call, its `data` parsed with the shared schema. */
export async function opsCall<S extends z.ZodType>(
  schema: S,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<z.output<S>> {
  const response = await send(method, path, body, headers);
  const json = (await response.json()) as { data: unknown };
  return schema.parse(json.data);
}

/** A file the API answers (a document, a bank file), as a blob: the call needs the bearer header. */
export async function opsBlob(path: string): Promise<Blob> {
  return (await send('GET', path)).blob();
}

/** The back office is English only; it names the currency, as its exports and the bank files do. */
export const formatCents = (cents: number) => `${formatAmount(cents)} EUR`;
export const formatTime = (iso: string | null) => (iso ? formatDate(iso, 'dateTime', 'en-GB') : '—');
