import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FileText, Paperclip, X } from 'lucide-react';
import { FileDrop } from '../../../components/ui/file-drop.tsx';
import { currentLocale } from '../../../lib/i18n.ts';
import { formatBytes } from '../../../lib/files.ts';
import { ATTACHMENT_ACCEPT, attachmentProblem } from './attachment-file.ts';

/** A file chosen for sending, with a key that survives removing others from the list. */
export interface StagedFile {
  key: string;
  file: File;
}

interface AttachmentPickerProps {
  files: StagedFile[];
  onChange: (files: StagedFile[]) => void;
  /** Upload progress per staged key, 0–1, while sending. */
  progress?: Record<string, number>;
  disabled?: boolean;
}

let nextKey = 0;

/** Several files by picker or drag and drop (spec 5), checked before anything is sent, removable until sent. */
export function AttachmentPicker({ files, onChange, progress = {}, disabled }: AttachmentPickerProps) {
  const { t } = useTranslation('support');
  const id = useId();
  const [problems, setProblems] = useState<string[]>([]);

  const add = (chosen: File[]) => {
    const found: string[] = [];
    const accepted: StagedFile[] = [];
    for (const file of chosen) {
      const problem = attachmentProblem(file);
      if (problem) found.push(t(`files.problem_${problem}`, { name: file.name }));
      else accepted.push({ key: `f${(nextKey += 1)}`, file });
    }
    setProblems(found);
    if (accepted.length > 0) onChange([...files, ...accepted]);
  };

  return (
    <div className="min-w-0 space-y-2">
      <p id={`${id}-label`} className="text-sm font-medium text-slate-800">
        {t('files.label')}
      </p>
      <FileDrop
        accept={ATTACHMENT_ACCEPT}
        multiple
        disabled={disabled}
        labelledBy={`${id}-label`}
        describedBy={`${id}-rules`}
        onFiles={add}
        inputTestId="attachment-input"
        zoneTestId="attachment-drop"
      >
        <span className="grid size-9 shrink-0 place-items-center rounded-lg bg-white text-primary-700 shadow-sm ring-1 ring-slate-200">
          <Paperclip className="size-4" aria-hidden="true" />
        </span>
        <span className="min-w-0">
          <span className="block text-sm font-semibold text-primary-950">{t('files.choose')}</span>
          <span className="block text-sm text-slate-600">{t('files.drop')}</span>
        </span>
      </FileDrop>
      <p id={`${id}-rules`} className="text-xs text-slate-500">
        {t('files.rules')}
      </p>
      {problems.length > 0 ? (
        <ul role="alert" className="space-y-0.5 text-sm text-red-700">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      ) : null}
      {files.length > 0 ? (
        <ul aria-label={t('files.list')} className="space-y-2">
          {files.map(({ key, file }) => {
            const ratio = progress[key];
            const percent = ratio === undefined ? null : Math.round(ratio * 100);
            return (
              <li key={key} className="rounded-xl bg-white p-2.5 ring-1 ring-slate-200">
                <div className="flex items-center gap-3">
                  <FileText className="size-5 shrink-0 text-primary-700" aria-hidden="true" />
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-sm font-medium text-slate-900">{file.name}</p>
                    <p className="text-xs text-slate-600">{formatBytes(file.size, currentLocale())}</p>
                  </div>
                  <button
                    type="button"
                    onClick={() => onChange(files.filter((staged) => staged.key !== key))}
                    disabled={disabled}
                    className="rounded-lg p-1.5 text-slate-500 hover:bg-slate-100 hover:text-red-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400 disabled:opacity-60"
                  >
                    <X className="size-4" aria-hidden="true" />
                    <span className="sr-only">{t('files.remove', { name: file.name })}</span>
                  </button>
                </div>
                {percent !== null ? (
                  <progress
                    className="mt-2 h-1.5 w-full overflow-hidden rounded-full accent-primary-700 [&::-webkit-progress-bar]:bg-slate-100 [&::-webkit-progress-value]:bg-primary-700"
                    max={100}
                    value={percent}
                    aria-label={t('files.uploading', { name: file.name, percent })}
                  />
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}
