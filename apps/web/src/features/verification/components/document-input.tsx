import { useId, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FileCheck2, FileUp, X } from 'lucide-react';
import { cn } from '../../../components/ui/cn.ts';
import { currentLocale } from '../../../lib/i18n.ts';
import { formatBytes } from '../../../lib/files.ts';
import { DOCUMENT_ACCEPT, documentProblem } from './document-file.ts';

interface DocumentInputProps {
  label: string;
  file: File | null;
  onChange: (file: File | null) => void;
  /** A message from the form or the server (already translated). */
  error?: string | undefined;
  disabled?: boolean;
}

/** One document: a drop zone that is also a file button; checks type and size before anything is sent. */
export function DocumentInput({ label, file, onChange, error, disabled }: DocumentInputProps) {
  const { t } = useTranslation('verification');
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const shown = problem ?? error;

  const choose = (chosen: File | undefined) => {
    if (!chosen) return;
    const found = documentProblem(chosen);
    setProblem(found ? t(`file.problem_${found}`) : null);
    onChange(found ? null : chosen);
  };

  const onDrop = (event: DragEvent<HTMLLabelElement>) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled) choose(event.dataTransfer.files[0]);
  };

  return (
    <div className="min-w-0 space-y-1.5">
      <p id={`${id}-label`} className="text-sm font-medium text-slate-800">
        {label}
      </p>
      <input
        ref={inputRef}
        id={id}
        type="file"
        accept={DOCUMENT_ACCEPT}
        className="peer sr-only"
        aria-labelledby={`${id}-label`}
        aria-describedby={shown ? `${id}-problem` : `${id}-rules`}
        aria-invalid={shown ? true : undefined}
        disabled={disabled}
        onChange={(event) => {
          choose(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
      {file ? (
        <div className="flex items-center gap-3 rounded-xl bg-emerald-50/70 p-3 ring-1 ring-emerald-200">
          <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-white text-emerald-700 ring-1 ring-emerald-200">
            <FileCheck2 className="size-5" aria-hidden="true" />
          </span>
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-medium text-slate-900">{file.name}</p>
            <p className="text-xs text-slate-600">{formatBytes(file.size, currentLocale())}</p>
          </div>
          <label
            htmlFor={id}
            className={cn(
              'cursor-pointer rounded-lg px-2.5 py-1.5 text-sm font-semibold text-primary-800 hover:bg-white',
              'peer-focus-visible:ring-2 peer-focus-visible:ring-accent-400',
              disabled && 'pointer-events-none opacity-60',
            )}
          >
            {t('file.replace')}
          </label>
          <button
            type="button"
            onClick={() => {
              setProblem(null);
              onChange(null);
            }}
            disabled={disabled}
            className="rounded-lg p-1.5 text-slate-500 hover:bg-white hover:text-red-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400 disabled:opacity-60"
          >
            <X className="size-4" aria-hidden="true" />
            <span className="sr-only">{t('file.remove', { name: file.name })}</span>
          </button>
        </div>
      ) : (
        <label
          htmlFor={id}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          className={cn(
            'flex cursor-pointer items-center gap-3 rounded-xl border-2 border-dashed px-4 py-4 transition-colors',
            'peer-focus-visible:ring-2 peer-focus-visible:ring-accent-400 peer-focus-visible:ring-offset-2',
            dragging
              ? 'border-primary-500 bg-primary-50'
              : shown
                ? 'border-red-300 bg-red-50/40 hover:border-red-400'
                : 'border-slate-300 bg-slate-50/60 hover:border-primary-400 hover:bg-primary-50/50',
            disabled && 'pointer-events-none opacity-60',
          )}
        >
          <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-white text-primary-700 shadow-sm ring-1 ring-slate-200">
            <FileUp className="size-5" aria-hidden="true" />
          </span>
          <span className="min-w-0">
            <span className="block text-sm font-semibold text-primary-950">{t('file.choose')}</span>
            <span className="block text-sm text-slate-600">{t('file.drop')}</span>
          </span>
        </label>
      )}
      {shown ? (
        <p id={`${id}-problem`} role="alert" className="text-sm text-red-700">
          {shown}
        </p>
      ) : (
        <p id={`${id}-rules`} className="text-xs text-slate-500">
          {t('file.rules')}
        </p>
      )}
    </div>
  );
}
