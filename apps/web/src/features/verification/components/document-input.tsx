import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FileCheck2, FileUp, X } from 'lucide-react';
import { FileDrop } from '../../../components/ui/file-drop.tsx';
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

/** One document: a drop zone that is also a file button (and shows the chosen file); checks type and size before anything is sent. */
export function DocumentInput({ label, file, onChange, error, disabled }: DocumentInputProps) {
  const { t } = useTranslation('verification');
  const id = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const shown = problem ?? error;

  const choose = (chosen: File) => {
    const found = documentProblem(chosen);
    setProblem(found ? t(`file.problem_${found}`) : null);
    onChange(found ? null : chosen);
  };

  return (
    <div className="min-w-0 space-y-1.5">
      <p id={`${id}-label`} className="text-sm font-medium text-slate-800">
        {label}
      </p>
      <div className="flex items-center gap-2">
        <FileDrop
          accept={DOCUMENT_ACCEPT}
          disabled={disabled}
          invalid={Boolean(shown)}
          labelledBy={`${id}-label`}
          describedBy={shown ? `${id}-problem` : `${id}-rules`}
          onFiles={(files) => choose(files[0]!)}
          className="min-w-0 flex-1 py-4"
        >
          <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-white text-primary-700 shadow-sm ring-1 ring-slate-200">
            {file ? (
              <FileCheck2 className="size-5 text-emerald-700" aria-hidden="true" />
            ) : (
              <FileUp className="size-5" aria-hidden="true" />
            )}
          </span>
          {file ? (
            <span className="min-w-0 flex-1">
              <span className="block truncate text-sm font-medium text-slate-900">{file.name}</span>
              <span className="block text-xs text-slate-600">{formatBytes(file.size, currentLocale())}</span>
            </span>
          ) : (
            <span className="min-w-0">
              <span className="block text-sm font-semibold text-primary-950">{t('file.choose')}</span>
              <span className="block text-sm text-slate-600">{t('file.drop')}</span>
            </span>
          )}
          {file ? <span className="shrink-0 text-sm font-semibold text-primary-800">{t('file.replace')}</span> : null}
        </FileDrop>
        {file ? (
          <button
            type="button"
            onClick={() => {
              setProblem(null);
              onChange(null);
            }}
            disabled={disabled}
            className="rounded-lg p-1.5 text-slate-500 hover:bg-slate-100 hover:text-red-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400 disabled:opacity-60"
          >
            <X className="size-4" aria-hidden="true" />
            <span className="sr-only">{t('file.remove', { name: file.name })}</span>
          </button>
        ) : null}
      </div>
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
