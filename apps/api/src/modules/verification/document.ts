import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { AppError } from '../../lib/app-error.ts';
import { t } from '../../lib/i18n.ts';
import { decodeUpload } from '../../lib/upload.ts';

/** Types a verification document may arrive in, decided by magic bytes; the upload's own `mime` and name are ignored. */
const ACCEPTED = new Set(['application/pdf', 'image/jpeg', 'image/png']);
/** Refuse decompression bombs, as for card photos: 40 MP covers any phone camera or scanner page. */
const MAX_INPUT_PIXELS = 40_000_000;

export interface StoredDocument {
  mime: string;
  content: Buffer;
}

/**
 * A document ready to store: PDF kept byte for byte; JPEG and PNG decoded, turned upright and re-encoded in their
 * own format at full size (an identity document must stay legible) without metadata (EXIF, GPS, XMP are dropped).
 * Problems are answered on `field`: not base64, empty, over 10 MB, or another type → 422 with a field-level message.
 */
export async function normalizeDocument(field: string, content: string): Promise<StoredDocument> {
  let bytes: Buffer;
  try {
    bytes = decodeUpload(content);
  } catch (error) {
    if (error instanceof AppError && error.code === 'payload_too_large') {
      throw new AppError('validation_failed', { message: error.message, validationErrors: { [field]: [error.message] } });
    }
    throw AppError.field('validation_failed', field, t('validation.valid'));
  }
  const type = await fileTypeFromBuffer(bytes);
  if (!type || !ACCEPTED.has(type.mime)) throw invalidFile(field);
  if (type.mime === 'application/pdf') return { mime: type.mime, content: bytes };
  try {
    const image = sharp(bytes, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS, sequentialRead: true }).rotate();
    const content = type.mime === 'image/png' ? await image.png({ compressionLevel: 9 }).toBuffer() : await image.jpeg({ quality: 90, mozjpeg: true }).toBuffer();
    return { mime: type.mime, content };
  } catch {
    throw invalidFile(field);
  }
}

function invalidFile(field: string): AppError {
  return AppError.field('invalid_file', field);
}
