import { useId, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ImageUp, ShieldAlert, Trash2, Upload } from 'lucide-react';
import { Avatar } from '../../components/ui/avatar.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FileDrop } from '../../components/ui/file-drop.tsx';
import { PageHeader, Panel } from '../../components/ui/page-header.tsx';
import { currentLocale } from '../../lib/i18n.ts';
import { showSnackbar } from '../../lib/ui-store.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { useMyCard } from '../../app/session/use-my-card.ts';
import { useDeletePhoto, useUploadPhoto } from './api/use-card.ts';
import { formatBytes, readAsBase64 } from '../../lib/files.ts';
import { photoProblem, type PhotoProblem } from './components/photo-file.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

export default function CardAddPhotoPage() {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const to = useLocalePath();
  const { card } = useMyCard();
  const upload = useUploadPhoto(card?.id);
  const remove = useDeletePhoto(card?.id);
  useDocumentTitle(t('photo.title'));
  const rulesId = useId();
  const problemId = useId();
  // FileDrop keeps its input to itself; the "Choose" button below opens the same picker through it.
  const pickerRef = useRef<HTMLInputElement>(null);
  const { control, setValue, handleSubmit } = useForm<{ photo: File | null }>({ defaultValues: { photo: null } });
  const file = useWatch({ control, name: 'photo' });
  const [preview, setPreview] = useState<string | null>(null);
  const [problem, setProblem] = useState<PhotoProblem | null>(null);
  const [progress, setProgress] = useState<number | null>(null);

  const choose = (chosen: File | undefined) => {
    if (!chosen) return;
    const found = photoProblem(chosen);
    setProblem(found);
    if (preview) URL.revokeObjectURL(preview);
    setPreview(found ? null : URL.createObjectURL(chosen));
    setValue('photo', found ? null : chosen);
  };

  const submit = handleSubmit(async ({ photo }) => {
    if (!photo || !card) return;
    setProgress(0);
    try {
      const content = await readAsBase64(photo, (ratio) => setProgress(Math.round(ratio * 40)));
      setProgress(50);
      await upload.mutateAsync({
        content,
        name: photo.name,
        mime: photo.type || (photo.name.toLowerCase().endsWith('.png') ? 'image/png' : 'image/jpeg'),
      });
      setProgress(100);
      showSnackbar(t('photo.done'), 'success');
      void navigate(to('/account'));
    } catch {
      setProgress(null);
    }
  });

  const busy = progress !== null;
  const locale = currentLocale();

  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader title={t('photo.title')} description={t('photo.description')} />
      <Panel>
        {card?.image_url && !file ? (
          <div className="mb-5 flex items-center gap-4 rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200">
            <Avatar src={card.image_url} name={card.public_name} alt={t('photo.current')} />
            <div className="flex-1 text-sm">
              <p className="font-medium text-slate-800">{t('photo.current')}</p>
            </div>
            <Button
              variant="danger"
              size="sm"
              loading={remove.isPending}
              onClick={() => remove.mutate(undefined, { onSuccess: () => showSnackbar(t('photo.removed'), 'success') })}
              icon={<Trash2 className="size-4" aria-hidden="true" />}
            >
              {t('photo.remove')}
            </Button>
          </div>
        ) : null}

        <FileDrop
          inputRef={pickerRef}
          accept="image/jpeg,image/png,.jpg,.jpeg,.png"
          layout="column"
          disabled={busy}
          invalid={problem !== null}
          describedBy={`${rulesId}${problem ? ` ${problemId}` : ''}`}
          onFiles={([chosen]) => choose(chosen)}
        >
          {preview ? (
            <img
              src={preview}
              alt={t('photo.preview')}
              className="size-40 rounded-2xl object-cover shadow-md ring-4 ring-white"
            />
          ) : (
            <span className="grid size-14 place-items-center rounded-2xl bg-white text-primary-700 shadow-sm ring-1 ring-slate-200">
              <ImageUp className="size-7" aria-hidden="true" />
            </span>
          )}
          <span className="text-base font-semibold text-primary-950">{file ? file.name : t('photo.choose')}</span>
          <span className="text-sm text-slate-600">{file ? formatBytes(file.size, locale) : t('photo.drop')}</span>
        </FileDrop>
        <p id={rulesId} className="mt-3 text-sm text-slate-500">
          {t('photo.rules')}
        </p>
        {problem ? (
          <p id={problemId} role="alert" className="mt-2 text-sm font-medium text-red-700">
            {t(`photo.problem_${problem}`)}
          </p>
        ) : null}

        <div className="mt-5 flex gap-3 rounded-xl bg-amber-50 p-3.5 text-sm text-amber-900 ring-1 ring-amber-200">
          <ShieldAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <p>{t('photo.content_rules')}</p>
        </div>

        {busy ? (
          <div className="mt-5" role="status">
            <div className="flex justify-between text-sm font-medium text-slate-700">
              <span>{t('photo.uploading')}</span>
              <span>{progress}%</span>
            </div>
            <div
              className="mt-2 h-2 overflow-hidden rounded-full bg-slate-100"
              role="progressbar"
              aria-label={t('photo.uploading')}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={progress ?? 0}
            >
              <div
                className="h-full rounded-full bg-primary-700 transition-[width] duration-300"
                style={{ width: `${progress}%` }}
              />
            </div>
          </div>
        ) : null}

        <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" size="lg" onClick={() => void navigate(to('/account'))} disabled={busy}>
            {t('common:actions.cancel')}
          </Button>
          {file ? (
            <Button
              size="lg"
              onClick={() => void submit()}
              loading={busy}
              icon={<Upload className="size-4" aria-hidden="true" />}
            >
              {t('photo.upload')}
            </Button>
          ) : (
            <Button size="lg" onClick={() => pickerRef.current?.click()} icon={<ImageUp className="size-4" aria-hidden="true" />}>
              {t('photo.choose')}
            </Button>
          )}
        </div>
      </Panel>
    </div>
  );
}
