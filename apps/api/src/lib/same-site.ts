import type { FastifyRequest } from 'fastify';

/**
 * Whether a form POST comes from our own pages, not another site making the visitor's browser send it (a checkout or
 * a receipt on someone else's behalf): browsers say where a request comes from in Sec-Fetch-Site, older ones in Origin.
 */
export function fromThisSite(request: FastifyRequest, publicUrl: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin' || site === 'none';
  const origin = request.headers.origin;
  if (typeof origin !== 'string') return true;
  return origin === new URL(publicUrl).origin || origin === `${request.protocol}://${request.host}`;
}
