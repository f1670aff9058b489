import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { AppError } from '../../lib/app-error.ts';

export { decodeUpload } from '../../lib/upload.ts';

/** Types a card photo may arrive in, decided by magic bytes; whatever the upload claims is ignored. */
const ACCEPTED_PHOTO_TYPES = new Set(['image/jpeg', 'image/png']);
/** Longest side of a stored photo; smaller photos are never enlarged. */
export const PHOTO_MAX_SIDE = 1024;
export const PHOTO_MIME = 'image/jpeg';
/**
 * Longest side of the avatar variant: every avatar the apps show is at most 96 CSS px, so 192 px is sharp at twice
 * the pixel density, and a small part of the stored photo's bytes on a guest's slow connection.
 */
export const AVATAR_MAX_SIDE = 192;
/** Refuse decompression bombs: a 10 MB PNG can claim gigapixels. 40 MP covers any phone camera. */
const MAX_INPUT_PIXELS = 40_000_000;

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

/** The avatar variant of a stored photo (already upright and without metadata): fitted into 192×192, as JPEG. */
export function avatarOf(photo: Buffer): Promise<Buffer> {
  return sharp(photo)
    .resize(AVATAR_MAX_SIDE, AVATAR_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 80, mozjpeg: true })
    .toBuffer();
}
