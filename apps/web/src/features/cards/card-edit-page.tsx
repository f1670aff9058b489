import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { serverFieldErrors } from '../../lib/api-errors.ts';
import { showSnackbar } from '../../lib/ui-store.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { useMyCard } from '../../app/session/use-my-card.ts';
import { useUpdateCard } from './api/use-card.ts';
import { CardForm } from './components/card-form.tsx';
import { ThankYouSection } from './components/thank-you-section.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

export default function CardEditPage() {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const to = useLocalePath();
  const { me, card } = useMyCard();
  const update = useUpdateCard(card?.id);
  useDocumentTitle(t('edit.title'));

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title={t('edit.title')} description={t('edit.description')} />
      {card ? (
        <CardForm
          key={card.id}
          card={card}
          me={me}
          submitLabel={t('edit.submit')}
          submitting={update.isPending}
          onCancel={() => void navigate(to('/account'))}
          onSubmit={(values, setFieldError) =>
            update.mutate(values, {
              onError: (error) => {
                for (const [field, message] of serverFieldErrors(error)) setFieldError(field, message);
              },
              onSuccess: () => {
                showSnackbar(t('edit.done'), 'success');
                void navigate(to('/account'));
              },
            })
          }
        />
      ) : null}
      {card ? <ThankYouSection key={`thanks-${card.id}`} card={card} /> : null}
    </div>
  );
}
