/** The element the server inlines page data into (apps/api web-shell `SHELL_DATA_ELEMENT_ID`). */
const SHELL_DATA_ID = 'tipcard-data';

/**
 * The public data the server inlined into the page it served (`/payment/{id}`, marketing pages), so the first paint
 * needs no request; undefined when the page came without it (vite dev, or a page that inlines nothing).
 */
export function readShellData<T>(): T | undefined {
  const element = typeof document === 'undefined' ? null : document.getElementById(SHELL_DATA_ID);
  if (!element?.textContent) return undefined;
  try {
    return JSON.parse(element.textContent) as T;
  } catch {
    return undefined;
  }
}
