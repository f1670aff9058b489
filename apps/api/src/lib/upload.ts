import { MAX_UPLOAD_BYTES } from '@tipcard/shared/constants';
import { AppError } from './app-error.ts';
import { t } from './i18n.ts';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Strict standard base64 (RFC 4648 §4, padded): anything else is a 422 on `content`. The decoded size is checked
 * from the length before anything is allocated: more than 10 MB is a 413 'File is too large', like a body over the
 * limit.
 */
export function decodeUpload(content: string, maxBytes = MAX_UPLOAD_BYTES): Buffer {
  if (content.length % 4 !== 0 || !BASE64.test(content)) {
    throw AppError.field('validation_failed', 'content', t('validation.valid'));
  }
  const padding = content.endsWith('==') ? 2 : content.endsWith('=') ? 1 : 0;
  const size = (content.length / 4) * 3 - padding;
  if (size > maxBytes) throw new AppError('payload_too_large');
  const bytes = Buffer.from(content, 'base64');
  // Buffer.from ignores bad input silently; the regex above makes that impossible, this makes sure of it.
  if (bytes.length !== size || size === 0) throw AppError.field('validation_failed', 'content', t('validation.valid'));
  return bytes;
}
