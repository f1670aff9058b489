import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { SearchX } from 'lucide-react';
import { EmptyState } from '../../components/ui/list-state.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useMyCard } from '../../app/session/use-my-card.ts';
import { ThankYouSection } from './components/thank-you-section.tsx';

/**
 * `/account/cards/{cardID}/thank-you`: the thank-you of one of the user's cards other than the private one, which has
 * it in its editor: the team card its admin holds (decision 0047).
 */
export default function CardThankYouPage() {
  const { t } = useTranslation('account');
  const { cardId } = useParams();
  const { cards, isPending } = useMyCard();
  const card = cards.find((item) => item.id === cardId);
  useDocumentTitle(t('thank_you.title'));
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title={t('thank_you.title')} description={card ? card.title : undefined} />
      {card ? (
        <ThankYouSection key={card.id} card={card} />
      ) : isPending ? (
        <Spinner label={t('thank_you.loading')} />
      ) : (
        <EmptyState
          icon={<SearchX className="size-7" />}
          title={t('thank_you.not_found_title')}
          text={t('thank_you.not_found_text')}
        />
      )}
    </div>
  );
}
