import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { serverFieldErrors } from '../../lib/api-errors.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { useMyCard } from '../../app/session/use-my-card.ts';
import { useCreateCard } from './api/use-card.ts';
import { CardForm } from './components/card-form.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

export default function CardCreatePage() {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const to = useLocalePath();
  const { me, clientId } = useMyCard();
  const create = useCreateCard(clientId);
  useDocumentTitle(t('create.title'));

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title={t('create.title')} description={t('create.description')} />
      {/* The form starts from the profile given at sign-up, so it waits for it. */}
      {me ? (
        <CardForm
          card={null}
          me={me}
          submitLabel={t('create.submit')}
          submitting={create.isPending}
          onSubmit={(values, setFieldError) =>
            create.mutate(values, {
              onError: (error) => {
                for (const [field, message] of serverFieldErrors(error)) setFieldError(field, message);
              },
              // The overview greets the new card ("Your QR card is ready"): no message says it twice.
              onSuccess: () => void navigate(to('/overview'), { replace: true }),
            })
          }
        />
      ) : null}
    </div>
  );
}
