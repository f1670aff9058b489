import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { MAX_UPLOAD_BYTES } from '@tipcard/shared/constants';
import { AppError } from '../../lib/app-error.ts';
import { t } from '../../lib/i18n.ts';

/** Types a card photo may arrive in, decided by magic bytes; whatever the upload claims is ignored. */
const ACCEPTED_PHOTO_TYPES = new Set(['image/jpeg', 'image/png']);
/** Longest side of a stored photo; smaller photos are never enlarged. */
export const PHOTO_MAX_SIDE = 1024;
export const PHOTO_MIME = 'image/jpeg';
/** Refuse decompression bombs: a 10 MB PNG can claim gigapixels. 40 MP covers any phone camera. */
const MAX_INPUT_PIXELS = 40_000_000;

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

/**
 * A card photo ready to store: JPEG or PNG by magic bytes, decoded, turned upright per EXIF, fitted into
 * 1024×1024, re-encoded as JPEG without any metadata (EXIF, GPS, ICC and XMP are dropped by sharp by default).
 * Anything else, or an image that does not decode, is 422 invalid_file.
 */
export async function normalizePhoto(bytes: Buffer): Promise<{ mime: string; content: Buffer }> {
  const type = await fileTypeFromBuffer(bytes);
  if (!type || !ACCEPTED_PHOTO_TYPES.has(type.mime)) throw new AppError('invalid_file');
  try {
    const content = await sharp(bytes, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS, sequentialRead: true })
      .rotate()
      .resize(PHOTO_MAX_SIDE, PHOTO_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer();
    return { mime: PHOTO_MIME, content };
  } catch {
    throw new AppError('invalid_file');
  }
}
