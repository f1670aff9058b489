import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { X } from 'lucide-react';
import { Logo } from './logo.tsx';

/**
 * The mobile menu: a side panel on the native <dialog> (focus trapped, Escape and a backdrop click close it).
 * Its content renders only while it is open.
 */
export function Drawer({
  open,
  onClose,
  label,
  children,
}: {
  open: boolean;
  onClose: () => void;
  label: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal?.();
    if (!open && dialog.open) dialog.close?.();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-label={label}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === ref.current) onClose();
      }}
      className="m-0 h-dvh max-h-none w-[min(20rem,85vw)] max-w-none bg-white p-0 shadow-2xl backdrop:bg-slate-950/40 open:animate-[drawer-in_200ms_ease-out]"
    >
      {open ? (
        <div className="flex h-full flex-col">
          <div className="flex h-16 items-center justify-between border-b border-slate-100 px-4">
            <Logo />
            <button
              type="button"
              onClick={onClose}
              data-dialog-close=""
              className="rounded-lg p-2 text-slate-600 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400"
            >
              <X className="size-5" aria-hidden="true" />
              <span className="sr-only">{t('nav.close_menu')}</span>
            </button>
          </div>
          {children}
        </div>
      ) : null}
    </dialog>
  );
}
