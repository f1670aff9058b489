import { useEffect } from 'react';

/** Sets the tab title for the page: "<page> · Tipcard". */
export function useDocumentTitle(title: string | null | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · Tipcard` : 'Tipcard';
  }, [title]);
}
