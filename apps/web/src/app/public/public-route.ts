/**
 * The pages of the public entry (public.html): path-form links that people without an account open from a QR code,
 * an e-mail or a message. The server answers each of these paths with public.html.
 */
import { withoutLocalePrefix } from '../../lib/is-locale.ts';

export type PublicRoute =
  | { page: 'payment' }
  | { page: 'invoice'; invoiceId: string; outcome: 'success' | 'canceled' | null }
  | { page: 'team-join'; teamId: string }
  | { page: 'action'; actionId: string }
  | { page: 'venue' }
  | { page: 'unknown' };

const ROOTS = ['payment', 'invoice', 'teams', 'actions', 'venue'];

/**
 * Reads the route from the path (`/invoice/{id}/success`); under `vite dev`, where public.html is served as it is, the
 * same path may follow a hash (`/public.html#/invoice/…`).
 */
export function parsePublicRoute(pathname: string, hash = ''): PublicRoute {
  const segments = (path: string) => path.split('?')[0]!.replace(/\/+$/, '').split('/').slice(1);
  let parts = segments(withoutLocalePrefix(pathname));
  if (!ROOTS.includes(parts[0] ?? '') && hash.startsWith('#/')) parts = segments(hash.slice(1));
  const [root, id, next, ...rest] = parts.map((part) => decodeURIComponent(part));
  if (root === 'payment') return { page: 'payment' };
  if (!id || rest.length > 0) return { page: 'unknown' };
  if (root === 'invoice' && (next === undefined || next === 'success' || next === 'canceled'))
    return { page: 'invoice', invoiceId: id, outcome: next ?? null };
  if (root === 'teams' && next === 'join') return { page: 'team-join', teamId: id };
  if (root === 'actions' && next === undefined) return { page: 'action', actionId: id };
  if (root === 'venue' && next === undefined) return { page: 'venue' };
  return { page: 'unknown' };
}
