import { localePrefixOf, withoutLocalePrefix } from '../../lib/is-locale.ts';

/** Where the guest is: the server answers each of these paths with public.html (apps/api payments.routes.ts). */
export type TipRoute =
  | { page: 'form'; cardId: string }
  | { page: 'success'; cardId: string; paymentId: string | null }
  | { page: 'canceled'; cardId: string; paymentId: string | null }
  // The form again, with what the guest entered in a payment that was declined or not confirmed in time.
  | { page: 'failed'; cardId: string; paymentId: string | null }
  | { page: 'timeout'; cardId: string; paymentId: string | null }
  | { page: 'result'; paymentId: string | null }
  | { page: 'unknown' };

const RESULT_SEGMENT = 'walletto-result';

/**
 * Reads the route from the path form the QR codes and the provider's returns use (`/payment/{id}/success?payment=…`);
 * under `vite dev`, where public.html is served as it is, the same path may follow a hash (`/public.html#/payment/…`).
 */
export function parseTipRoute(pathname: string, search: string, hash = ''): TipRoute {
  let path = withoutLocalePrefix(pathname);
  let query = search;
  if (!/^\/payment\//.test(path) && hash.startsWith('#/payment/')) {
    const [hashPath = '', hashQuery = ''] = hash.slice(1).split('?');
    path = hashPath;
    query = hashQuery ? `?${hashQuery}` : search;
  }
  const paymentId = new URLSearchParams(query).get('payment') || null;
  const [, root, cardId, outcome, ...rest] = path.replace(/\/+$/, '').split('/');
  if (root !== 'payment' || !cardId || rest.length > 0) return { page: 'unknown' };
  if (cardId === RESULT_SEGMENT && outcome === undefined) return { page: 'result', paymentId };
  const id = decodeURIComponent(cardId);
  if (outcome === undefined) return { page: 'form', cardId: id };
  if (outcome === 'success') return { page: 'success', cardId: id, paymentId };
  if (outcome === 'canceled' || outcome === 'failed' || outcome === 'timeout') return { page: outcome, cardId: id, paymentId };
  return { page: 'unknown' };
}

/**
 * The path form of a route, for history.replaceState/pushState (the server answers each of them on reload), under the
 * language prefix the guest came by, which decides the page's language on that reload.
 */
export function tipRoutePath(route: TipRoute, prefix = localePrefixOf(window.location.pathname)): string {
  const query = (paymentId: string | null) => (paymentId ? `?payment=${encodeURIComponent(paymentId)}` : '');
  switch (route.page) {
    case 'form':
      return `${prefix}/payment/${encodeURIComponent(route.cardId)}`;
    case 'success':
    case 'canceled':
    case 'failed':
    case 'timeout':
      return `${prefix}/payment/${encodeURIComponent(route.cardId)}/${route.page}${query(route.paymentId)}`;
    case 'result':
      return `${prefix}/payment/${RESULT_SEGMENT}${query(route.paymentId)}`;
    case 'unknown':
      return window.location.pathname;
  }
}

/** The card a route belongs to, when the URL names one. */
export function cardIdOf(route: TipRoute): string | null {
  return 'cardId' in route ? route.cardId : null;
}
