const KEY = 'tipcard.left_for_checkout';

/**
 * What the guest had entered when the page left for the provider's checkout. The browser's Back from the checkout
 * loads the page again (when it is not kept whole in the back-forward cache), and the form would start from the
 * server's values: a typed "Other amount" would be gone. Session storage: this tab, this visit only.
 */
export function rememberLeftForCheckout<T>(cardId: string, values: T): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ cardId, values }));
  } catch {
    // Storage may be off (private mode): Back then shows the form as the server renders it.
  }
}

/** The values to start from when the guest came back with Back or Forward to this card's page; taken once. */
export function takeLeftForCheckout<T>(cardId: string): T | null {
  try {
    const saved = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    if (!saved || navigation?.type !== 'back_forward') return null;
    const parsed = JSON.parse(saved) as { cardId?: unknown; values?: T };
    return parsed.cardId === cardId && parsed.values ? parsed.values : null;
  } catch {
    return null;
  }
}
