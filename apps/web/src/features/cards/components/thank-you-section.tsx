import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Heart, ImageUp, Trash2 } from 'lucide-react';
import { THANK_YOU_MAX_LENGTH, type Card } from '@tipcard/shared/cards/schemas';
import { Button } from '../../../components/ui/button.tsx';
import { TextAreaField } from '../../../components/ui/field.tsx';
import { FileDrop } from '../../../components/ui/file-drop.tsx';
import { Panel } from '../../../components/ui/page-header.tsx';
import { readAsBase64 } from '../../../lib/files.ts';
import { showSnackbar } from '../../../lib/ui-store.ts';
import { useDeleteThankYouPhoto, useUpdateCard, useUploadThankYouPhoto } from '../api/use-card.ts';
import { photoProblem, type PhotoProblem } from './photo-file.ts';

/**
 * The card's thank-you (decision 0047): a short text, and a photo that goes with it, that the guest sees after paying
 * (success page, receipt). Saved on its own, apart from the card form above it.
 */
export function ThankYouSection({ card }: { card: Card }) {
  const { t } = useTranslation('account');
  const titleId = useId();
  const rulesId = useId();
  const problemId = useId();
  const [text, setText] = useState(card.thank_you_text ?? '');
  const [problem, setProblem] = useState<PhotoProblem | null>(null);
  const update = useUpdateCard(card.id);
  const upload = useUploadThankYouPhoto(card.id);
  const remove = useDeleteThankYouPhoto(card.id);
  const length = text.trim().length;
  const changed = text.trim() !== (card.thank_you_text ?? '');

  const save = () =>
    update.mutate(
      { thank_you_text: text },
      {
        onSuccess: (saved) => {
          setText(saved.thank_you_text ?? '');
          showSnackbar(t(saved.thank_you_text ? 'thank_you.saved' : 'thank_you.cleared'), 'success');
        },
      },
    );

  const choose = async (file: File | undefined) => {
    if (!file) return;
    const found = photoProblem(file);
    setProblem(found);
    if (found) return;
    const content = await readAsBase64(file);
    // The server decides the type by the bytes; the name and type sent are only what the browser says.
    upload.mutate(
      { content, name: file.name, mime: file.type || 'application/octet-stream' },
      { onSuccess: () => showSnackbar(t('thank_you.photo_saved'), 'success') },
    );
  };

  return (
    <Panel className="mt-6">
      <section aria-labelledby={titleId} data-testid="thank-you-section">
        <div className="flex items-start gap-3">
          <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-rose-50 text-rose-600 ring-1 ring-rose-100">
            <Heart className="size-5" aria-hidden="true" />
          </span>
          <div className="min-w-0">
            <h2 id={titleId} className="text-lg font-semibold text-primary-950">
              {t('thank_you.title')}
            </h2>
            <p className="mt-0.5 text-sm text-slate-600">{t('thank_you.description')}</p>
          </div>
        </div>

        <TextAreaField
          className="mt-5"
          label={t('thank_you.text_label')}
          optional={t('form.optional')}
          value={text}
          maxLength={THANK_YOU_MAX_LENGTH}
          onChange={(event) => setText(event.target.value)}
          placeholder={t('thank_you.placeholder')}
          hint={
            <span data-testid="thank-you-counter">{t('thank_you.counter', { count: length, max: THANK_YOU_MAX_LENGTH })}</span>
          }
        />
        <div className="mt-3 flex justify-end">
          <Button onClick={save} loading={update.isPending} disabled={!changed} data-testid="thank-you-save">
            {t('thank_you.save')}
          </Button>
        </div>

        <h3 className="mt-6 text-sm font-semibold text-slate-800">{t('thank_you.photo_label')}</h3>
        {card.thank_you_image_url ? (
          <div className="mt-2 flex flex-col gap-3 rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200 sm:flex-row sm:items-center">
            <img
              src={card.thank_you_image_url}
              alt={t('thank_you.photo_current')}
              className="h-32 w-full rounded-lg object-cover sm:w-48"
              data-testid="thank-you-photo-preview"
            />
            <Button
              variant="danger"
              size="sm"
              loading={remove.isPending}
              onClick={() => remove.mutate(undefined, { onSuccess: () => showSnackbar(t('thank_you.photo_removed'), 'success') })}
              icon={<Trash2 className="size-4" aria-hidden="true" />}
            >
              {t('thank_you.photo_remove')}
            </Button>
          </div>
        ) : null}
        <FileDrop
          className="mt-3"
          accept="image/jpeg,image/png,.jpg,.jpeg,.png"
          disabled={upload.isPending}
          invalid={problem !== null}
          describedBy={`${rulesId}${problem ? ` ${problemId}` : ''}`}
          onFiles={([file]) => void choose(file)}
          inputTestId="thank-you-photo-input"
        >
          <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-white text-primary-700 ring-1 ring-slate-200">
            <ImageUp className="size-5" aria-hidden="true" />
          </span>
          <span className="text-sm font-medium text-primary-950">
            {upload.isPending
              ? t('thank_you.photo_uploading')
              : card.thank_you_image_url
                ? t('thank_you.photo_replace')
                : t('thank_you.photo_choose')}
          </span>
        </FileDrop>
        <p id={rulesId} className="mt-2 text-sm text-slate-500">
          {t('photo.rules')}
        </p>
        {problem ? (
          <p id={problemId} role="alert" className="mt-2 text-sm font-medium text-red-700">
            {t(`photo.problem_${problem}`)}
          </p>
        ) : null}
      </section>
    </Panel>
  );
}
