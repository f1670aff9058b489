import { MAX_UPLOAD_BYTES } from '@tipcard/shared/constants';

export const PHOTO_TYPES: Record<string, string[]> = {
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/png': ['.png'],
};

export type PhotoProblem = 'type' | 'size' | 'empty';

/** The client-side check of a photo: jpg or png, at most 10 MB. */
export function photoProblem(file: Pick<File, 'name' | 'type' | 'size'>): PhotoProblem | null {
  const extension = file.name.toLowerCase().match(/\.[a-z0-9]+$/)?.[0] ?? '';
  const typeOk = file.type ? Object.hasOwn(PHOTO_TYPES, file.type) : Object.values(PHOTO_TYPES).flat().includes(extension);
  if (!typeOk) return 'type';
  if (file.size === 0) return 'empty';
  if (file.size > MAX_UPLOAD_BYTES) return 'size';
  return null;
}
