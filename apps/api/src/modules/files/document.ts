import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { AppError } from '../../lib/app-error.ts';
import { t } from '../../lib/i18n.ts';
import { isSafePdf } from '../../lib/pdf-check.ts';
import { decodeUpload } from '../../lib/upload.ts';

/** Types a document (verification, support attachment) may arrive in, decided by magic bytes; the upload's own `mime` and name are ignored. */
const ACCEPTED = new Set(['application/pdf', 'image/jpeg', 'image/png']);
/** An .edoc (Latvian e-signature container, ASiC-E): a ZIP whose first entry is `mimetype`, stored, holding this. */
export const EDOC_MIME = 'application/vnd.etsi.asic-e+zip';
/** Refuse decompression bombs, as for card photos: 40 MP covers any phone camera or scanner page. */
const MAX_INPUT_PIXELS = 40_000_000;

export interface StoredDocument {
  mime: string;
  content: Buffer;
}

/**
 * A document ready to store: PDF kept byte for byte once a parser opens it and it carries no script or action; JPEG and PNG decoded, turned upright and re-encoded in their
 * own format at full size (an identity document must stay legible) without metadata (EXIF, GPS, XMP are dropped).
 * Problems are answered on `field`: not base64, empty, over 10 MB, or another type → 422 with a field-level message.
 */
export async function normalizeDocument(field: string, content: string, options: { edoc?: boolean } = {}): Promise<StoredDocument> {
  let bytes: Buffer;
  try {
    bytes = decodeUpload(content);
  } catch (error) {
    if (error instanceof AppError && error.code === 'payload_too_large') {
      throw new AppError('validation_failed', { message: error.message, validationErrors: { [field]: [error.message] } });
    }
    throw AppError.field('validation_failed', field, t('validation.valid'));
  }
  // Kept byte for byte like a PDF: re-packing would break the signatures it exists to carry.
  if (options.edoc && isEdoc(bytes)) return { mime: EDOC_MIME, content: bytes };
  const type = await fileTypeFromBuffer(bytes);
  if (!type || !ACCEPTED.has(type.mime)) throw invalidFile(field);
  if (type.mime === 'application/pdf') {
    if (!(await isSafePdf(bytes))) throw invalidFile(field);
    return { mime: type.mime, content: bytes };
  }
  try {
    const image = sharp(bytes, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS, sequentialRead: true }).rotate();
    const content = type.mime === 'image/png' ? await image.png({ compressionLevel: 9 }).toBuffer() : await image.jpeg({ quality: 90, mozjpeg: true }).toBuffer();
    return { mime: type.mime, content };
  } catch {
    throw invalidFile(field);
  }
}

/**
 * ASiC-E (ETSI EN 319 162): the ZIP's first local header names `mimetype`, stored uncompressed, and its content is the
 * container's type. Checked on the bytes, so a renamed ZIP or executable is not taken for one.
 */
function isEdoc(bytes: Buffer): boolean {
  if (bytes.length < 30 || bytes.readUInt32LE(0) !== 0x04034b50) return false;
  const method = bytes.readUInt16LE(8);
  const nameLength = bytes.readUInt16LE(26);
  const extraLength = bytes.readUInt16LE(28);
  const name = bytes.subarray(30, 30 + nameLength).toString('latin1');
  const start = 30 + nameLength + extraLength;
  return method === 0 && name === 'mimetype' && bytes.subarray(start, start + EDOC_MIME.length).toString('latin1') === EDOC_MIME;
}

function invalidFile(field: string): AppError {
  return AppError.field('invalid_file', field);
}
