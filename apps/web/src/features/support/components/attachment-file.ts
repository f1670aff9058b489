import { ATTACHMENT_EXTENSIONS, ATTACHMENT_MAX_BYTES } from '@tipcard/shared/support/schemas';

export type AttachmentProblem = 'type' | 'size' | 'empty';

const MIME_BY_EXTENSION: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.edoc': 'application/vnd.etsi.asic-e+zip',
};

/** What the picker offers (spec 5); the server decides by the bytes anyway. */
export const ATTACHMENT_ACCEPT = ATTACHMENT_EXTENSIONS.join(',');

function extensionOf(name: string): string {
  return name.toLowerCase().match(/\.[a-z0-9]+$/)?.[0] ?? '';
}

/**
 * The client-side check: by extension (browsers give .edoc no type, and a dragged file's type is only a guess from
 * its name), 1 byte to 10 MB.
 */
export function attachmentProblem(file: Pick<File, 'name' | 'size'>): AttachmentProblem | null {
  if (!(ATTACHMENT_EXTENSIONS as readonly string[]).includes(extensionOf(file.name))) return 'type';
  if (file.size === 0) return 'empty';
  if (file.size > ATTACHMENT_MAX_BYTES) return 'size';
  return null;
}

export function attachmentMime(file: Pick<File, 'name' | 'type'>): string {
  return file.type || MIME_BY_EXTENSION[extensionOf(file.name)] || 'application/octet-stream';
}
