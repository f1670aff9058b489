import { useEffect, useState } from 'react';

const COPIED_MS = 2_000;

/**
 * Copies a link to the clipboard. `copy` answers whether it worked (a browser may refuse: no permission, an insecure
 * page); `copied` is true for two seconds after, for a button that says "Copied".
 */
export function useCopyLink(): { copied: boolean; copy: (url: string) => Promise<boolean> } {
  const [copiedAt, setCopiedAt] = useState<number | null>(null);
  useEffect(() => {
    if (copiedAt === null) return;
    const timer = setTimeout(() => setCopiedAt(null), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copiedAt]);
  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      setCopiedAt(Date.now());
      return true;
    } catch {
      return false;
    }
  };
  return { copied: copiedAt !== null, copy };
}

/** Whether this device has a share sheet (phones, some desktops). */
export function canShare(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.share === 'function';
}

/** Opens the share sheet; a dismissed or refused sheet needs no message: the person chose not to share. */
export function shareLink(data: ShareData): Promise<void> {
  return navigator.share(data).catch(() => undefined);
}
