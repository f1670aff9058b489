import type { FastifyReply } from 'fastify';

/**
 * Headers for any file a user stored (photos, documents): downloaded rather than opened as a page, its type never
 * sniffed, and, should a browser render it anyway, in a sandbox with nothing allowed. An `<img>` still shows an image.
 */
export function storedFileHeaders(reply: FastifyReply, filename: string): FastifyReply {
  // An ASCII stand-in for old browsers, the exact (UTF-8) name for the rest (RFC 6266).
  const ascii = filename.replace(/[^\w.-]/g, '_');
  return reply
    .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox");
}
