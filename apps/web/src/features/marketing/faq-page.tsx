import { useTranslation } from 'react-i18next';
import { Accordion } from '../../components/ui/accordion.tsx';
import { useNamespaces } from '../../lib/i18n.ts';
import { useConfiguredFigures } from '../../lib/site-info.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { PageHero } from '../../components/ui/page-hero.tsx';
import { QuestionsCta } from './components/questions-cta.tsx';

export default function FaqPage() {
  useNamespaces(['marketing']);
  const { t } = useTranslation('marketing');
  useDocumentTitle(t('faq.title'));
  const figures = useConfiguredFigures();
  const items = Object.entries(
    t('faq.items', { returnObjects: true, ...figures }) as Record<string, { q: string; a: string }>,
  ).map(([id, item]) => ({
    id,
    title: item.q,
    content: <p>{item.a}</p>,
  }));

  return (
    <>
      <PageHero eyebrow={t('faq.eyebrow')} title={t('faq.title')} lead={t('faq.lead')} />
      <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
        <Accordion items={items} headingLevel={2} />
      </div>
      <QuestionsCta showFaq={false} />
    </>
  );
}
