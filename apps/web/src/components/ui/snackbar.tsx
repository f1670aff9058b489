import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AlertCircle, CheckCircle2, Info, X } from 'lucide-react';
import { useStore } from '../../lib/use-store.ts';
import { hideSnackbar, SNACKBAR_DURATION_MS, uiStore, type SnackbarColor } from '../../lib/ui-store.ts';
import { cn } from './cn.ts';

/** How long after a message the page its action opens may still arrive (a lazily loaded page takes a moment). */
const ACTION_NAVIGATION_MS = 2_000;

/** The one snackbar of the app (red for errors), announced through an aria-live region. */
export function Snackbar() {
  const snackbar = useStore(uiStore, (state) => state.snackbar);

  useEffect(() => {
    if (!snackbar) return;
    const timer = setTimeout(() => hideSnackbar(snackbar.id), SNACKBAR_DURATION_MS[snackbar.color]);
    return () => clearTimeout(timer);
  }, [snackbar]);

  // A message belongs to the page it was shown on, or to the one its action led to (that navigation follows at once):
  // the guest's next move elsewhere takes it away, so "Photo uploaded" does not follow them to the overview.
  const { pathname } = useLocation();
  useEffect(() => {
    const current = uiStore.get().snackbar;
    if (current && Date.now() - current.shownAt > ACTION_NAVIGATION_MS) hideSnackbar(current.id);
  }, [pathname]);

  return (
    <div
      aria-live="assertive"
      aria-atomic="true"
      data-snackbar-region=""
      className="pointer-events-none fixed inset-x-0 bottom-0 z-[60] flex justify-center p-4 sm:bottom-4"
    >
      {snackbar ? (
        <SnackbarMessage
          key={snackbar.id}
          message={snackbar.message}
          color={snackbar.color}
          onClose={() => hideSnackbar(snackbar.id)}
        />
      ) : null}
    </div>
  );
}

/** One message; the landing page's server render draws the cookie settings' confirmation for its script too. */
export function SnackbarMessage({ message, color, onClose }: { message: string; color: SnackbarColor; onClose?: () => void }) {
  const { t } = useTranslation();
  const Icon = color === 'success' ? CheckCircle2 : color === 'info' ? Info : AlertCircle;
  return (
    <div
      data-testid="snackbar"
      data-color={color}
      className={cn(
        'pointer-events-auto flex w-full max-w-md animate-[snackbar-in_200ms_ease-out] items-start gap-3 rounded-xl px-4 py-3 text-sm font-medium text-white shadow-lg',
        color === 'error' && 'bg-red-700',
        color === 'success' && 'bg-emerald-700',
        color === 'info' && 'bg-primary-900',
      )}
    >
      <Icon className="mt-px size-5 shrink-0" aria-hidden="true" />
      <p className="flex-1">{message}</p>
      <button
        type="button"
        onClick={onClose}
        className="-m-1 rounded-md p-1 text-white/80 hover:bg-white/15 hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white"
      >
        <X className="size-4" aria-hidden="true" />
        <span className="sr-only">{t('snackbar.close')}</span>
      </button>
    </div>
  );
}
