import { LOCALES } from '@tipcard/shared/constants';

/** The public pages that exist in path form only (the server renders them; public.html's entry runs them). */
const PATH_FORM_ROOTS = ['payment', 'invoice'];

/**
 * The path form of a hash route that belongs to a public page (`#/payment/{id}`, `#/lv/invoice/{id}`: old links and
 * printed QR codes), or null for the app's own routes.
 */
export function pathFormOf(hash: string): string | null {
  const route = hash.replace(/^#/, '');
  const parts = route.split('?')[0]!.split('/');
  const offset = (LOCALES as readonly string[]).includes(parts[1] ?? '') ? 1 : 0;
  if (!PATH_FORM_ROOTS.includes(parts[1 + offset] ?? '') || !parts[2 + offset]) return null;
  const path = `/${parts.slice(1 + offset).join('/')}`;
  const query = route.includes('?') ? route.slice(route.indexOf('?')) : '';
  return `${path}${query}`;
}
