import { DOCUMENT_MAX_BYTES, DOCUMENT_TYPES } from '@tipcard/shared/verification/schemas';

export type DocumentProblem = 'type' | 'size' | 'empty';

/** What the file input accepts: the types and their extensions (the server decides by content anyway). */
export const DOCUMENT_ACCEPT = [...Object.keys(DOCUMENT_TYPES), ...Object.values(DOCUMENT_TYPES).flat()].join(',');

function extensionOf(name: string): string {
  return name.toLowerCase().match(/\.[a-z0-9]+$/)?.[0] ?? '';
}

/** The client-side check of a document: PDF, JPG/JPEG or PNG by its type (or extension when the browser gives none), 1 byte to 10 MB. */
export function documentProblem(file: Pick<File, 'name' | 'type' | 'size'>): DocumentProblem | null {
  const extension = extensionOf(file.name);
  const typeOk = file.type ? Object.hasOwn(DOCUMENT_TYPES, file.type) : Object.values(DOCUMENT_TYPES).flat().includes(extension);
  if (!typeOk) return 'type';
  if (file.size === 0) return 'empty';
  if (file.size > DOCUMENT_MAX_BYTES) return 'size';
  return null;
}

/** The mime to send: the browser's, or one guessed from the extension (the server ignores it and reads the bytes). */
export function documentMime(file: Pick<File, 'name' | 'type'>): string {
  if (file.type) return file.type;
  const extension = extensionOf(file.name);
  return (
    Object.entries(DOCUMENT_TYPES).find(([, extensions]) => extensions.includes(extension))?.[0] ?? 'application/octet-stream'
  );
}
