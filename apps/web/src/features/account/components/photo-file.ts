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

/** The file as base64 without the `data:` prefix, reporting read progress (0–1). */
export function readAsBase64(file: Blob, onProgress?: (ratio: number) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onprogress = (event) => {
      if (event.lengthComputable) onProgress?.(event.loaded / event.total);
    };
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.onload = () => {
      const result = String(reader.result ?? '');
      resolve(result.slice(result.indexOf(',') + 1));
    };
    reader.readAsDataURL(file);
  });
}

export function formatBytes(bytes: number, locale: string): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1) return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(mb)} MB`;
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(Math.max(1, bytes / 1024))} KB`;
}
