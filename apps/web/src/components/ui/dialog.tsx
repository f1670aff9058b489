import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { X } from 'lucide-react';
import { cn } from './cn.ts';

interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  className?: string;
  /** Hide the title visually (still read by screen readers). */
  hideTitle?: boolean;
}

/**
 * A modal on the native <dialog>: the browser traps focus, Escape closes it and the rest of the page is inert.
 * A click on the backdrop closes it too. The element marked `data-autofocus` inside, if any, has the focus on opening.
 */
export function Dialog({ open, onClose, title, children, footer, className, hideTitle }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const { t } = useTranslation();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
      // showModal focuses the first focusable element (Close) unless one carries the HTML autofocus attribute, which
      // React's autoFocus does not write: a field marked data-autofocus takes the focus, so typing goes into it.
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    } else if (!open && dialog.open) {
      if (typeof dialog.close === 'function') dialog.close();
      else dialog.removeAttribute('open');
    }
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === ref.current) onClose();
      }}
      className={cn(
        'm-auto w-[calc(100%-2rem)] max-w-md rounded-2xl bg-white p-0 text-slate-900 shadow-2xl',
        'backdrop:bg-slate-950/50 backdrop:backdrop-blur-[2px] open:animate-[dialog-in_180ms_ease-out]',
        className,
      )}
    >
      {open ? (
        <div className="flex max-h-[calc(100dvh-2rem)] flex-col">
          <div className="flex items-start justify-between gap-4 px-5 pt-5 sm:px-6">
            <h2 id={titleId} className={cn('text-lg font-semibold text-primary-950', hideTitle && 'sr-only')}>
              {title}
            </h2>
            <button
              type="button"
              onClick={onClose}
              data-dialog-close=""
              className="-m-1.5 ml-auto rounded-lg p-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400"
            >
              <X className="size-5" aria-hidden="true" />
              <span className="sr-only">{t('actions.close')}</span>
            </button>
          </div>
          <div className="overflow-y-auto px-5 pb-5 pt-3 sm:px-6">{children}</div>
          {footer ? (
            <div className="flex flex-col-reverse gap-2 border-t border-slate-100 px-5 py-4 sm:flex-row sm:justify-end sm:px-6">
              {footer}
            </div>
          ) : null}
        </div>
      ) : null}
    </dialog>
  );
}
