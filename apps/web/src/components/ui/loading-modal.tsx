import { useTranslation } from 'react-i18next';
import { useStore } from '../../lib/use-store.ts';
import { uiStore } from '../../lib/ui-store.ts';
import { Spinner } from './spinner.tsx';

/** Blocks the page while the global loading flag is set (sign-in, verification). */
export function LoadingModal() {
  const loading = useStore(uiStore, (state) => state.loading);
  const { t } = useTranslation();
  if (!loading) return null;
  return (
    <div className="fixed inset-0 z-50 grid place-items-center bg-white/70 backdrop-blur-sm" role="status" aria-live="polite">
      <div className="flex flex-col items-center gap-3 rounded-2xl bg-white px-8 py-6 text-primary-800 shadow-xl ring-1 ring-slate-200">
        <Spinner className="scale-150" />
        <span className="text-sm font-medium text-slate-700">{t('loading')}</span>
      </div>
    </div>
  );
}
