import type { FastifyReply } from 'fastify';

/**
 * A name fit to show and to offer as a download's file name: the last path segment, no control or quoting
 * characters, at most 200 characters; never empty. Bidirectional controls go too: with a right-to-left override,
 * `invoice\u202Efdp.exe` shows as `invoiceexe.pdf` to the operator who opens it.
 */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f"<>|:*?\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim()
    .slice(0, 200);
  return cleaned || 'attachment';
}

/**
 * Headers for any file a user stored (photos, documents): downloaded rather than opened as a page, its type never
 * sniffed, and, should a browser render it anyway, in a sandbox with nothing allowed. An `<img>` still shows an image.
 */
export function storedFileHeaders(reply: FastifyReply, name: string): FastifyReply {
  // Cleaned again: names stored before a rule of `cleanFileName` existed are served under it too.
  const filename = cleanFileName(name);
  // An ASCII stand-in for old browsers, the exact (UTF-8) name for the rest (RFC 6266).
  const ascii = filename.replace(/[^\w.-]/g, '_');
  return reply
    .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox");
}
