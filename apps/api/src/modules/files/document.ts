import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { AppError } from '../../lib/app-error.ts';
import { t } from '../../lib/i18n.ts';
import { checkPdf } from '../../lib/pdf-check.ts';
import { decodeUpload } from '../../lib/upload.ts';
import { EDOC_MIME, edocDataFiles, looksLikeEdoc } from './edoc.ts';

/** Types a document (verification, support attachment) may arrive in, decided by magic bytes; the upload's own `mime` and name are ignored. */
const ACCEPTED = new Set(['application/pdf', 'image/jpeg', 'image/png']);
/** Refuse decompression bombs, as for card photos: 40 MP covers any phone camera or scanner page. */
const MAX_INPUT_PIXELS = 40_000_000;

export interface StoredDocument {
  mime: string;
  content: Buffer;
}

/**
 * A document ready to store: PDF kept byte for byte once a parser opens it and it carries no active content (script,
 * actions, links, embedded files: `checkPdf`); JPEG and PNG decoded, turned upright and re-encoded in their own format
 * at full size (an identity document must stay legible) without metadata (EXIF, GPS, XMP are dropped). With `edoc`,
 * an ASiC-E container too, kept byte for byte (re-packing would break the signatures it exists to carry) once it is
 * a real one and every document in it passes the checks of an upload.
 * Problems are answered on `field`: not base64, empty, over 10 MB, or another type → 422 `invalid_file` with a
 * field-level message; a PDF with active content → 422 `file_active_content`.
 */
export async function normalizeDocument(
  field: string,
  content: string,
  options: { edoc?: boolean } = {},
): Promise<StoredDocument> {
  let bytes: Buffer;
  try {
    bytes = decodeUpload(content);
  } catch (error) {
    if (error instanceof AppError && error.code === 'payload_too_large') {
      throw new AppError('validation_failed', { message: error.message, validationErrors: { [field]: [error.message] } });
    }
    throw AppError.field('validation_failed', field, t('validation.valid'));
  }
  if (options.edoc && looksLikeEdoc(bytes)) {
    // Whatever follows a container's first header must be the container, or it is refused (not typed anew).
    const documents = safely(() => edocDataFiles(bytes));
    if (!documents) throw invalidFile(field);
    for (const document of documents) {
      const mime = await checkedType(field, document.content);
      if (mime !== 'application/pdf' && !(await decodes(document.content))) throw invalidFile(field);
    }
    return { mime: EDOC_MIME, content: bytes };
  }
  const mime = await checkedType(field, bytes);
  if (mime === 'application/pdf') return { mime, content: bytes };
  try {
    const image = sharp(bytes, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS, sequentialRead: true }).rotate();
    const content =
      mime === 'image/png'
        ? await image.png({ compressionLevel: 9 }).toBuffer()
        : await image.jpeg({ quality: 90, mozjpeg: true }).toBuffer();
    return { mime, content };
  } catch {
    throw invalidFile(field);
  }
}

/** The type by magic bytes, refused unless accepted; a PDF is checked whole here. */
async function checkedType(field: string, bytes: Buffer): Promise<string> {
  const type = await fileTypeFromBuffer(bytes);
  if (!type || !ACCEPTED.has(type.mime)) throw invalidFile(field);
  if (type.mime === 'application/pdf') {
    const verdict = await checkPdf(bytes);
    if (verdict === 'active_content') throw AppError.field('file_active_content', field);
    if (verdict !== 'safe') throw invalidFile(field);
  }
  return type.mime;
}

/** Whether an image decodes whole (a signed one cannot be re-encoded, so decoding is its test). */
async function decodes(bytes: Buffer): Promise<boolean> {
  try {
    await sharp(bytes, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS, sequentialRead: true }).stats();
    return true;
  } catch {
    return false;
  }
}

/** A reader's answer, or null when it failed on bytes it did not foresee: those are refused, never a 500. */
function safely<T>(read: () => T | null): T | null {
  try {
    return read();
  } catch {
    return null;
  }
}

function invalidFile(field: string): AppError {
  return AppError.field('invalid_file', field);
}
