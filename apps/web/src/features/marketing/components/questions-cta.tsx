import { useTranslation } from 'react-i18next';
import { ArrowRight, MessageCircleQuestion } from 'lucide-react';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { useLocalePath } from '../../../lib/use-locale-path.ts';

/** The closing block of information pages: FAQ and contacts. */
export function QuestionsCta({ showFaq = true }: { showFaq?: boolean }) {
  const { t } = useTranslation('marketing');
  const to = useLocalePath();
  return (
    <section className="px-4 pb-16 sm:px-6">
      <div className="mx-auto flex max-w-6xl flex-col items-start gap-6 rounded-3xl bg-gradient-to-br from-primary-800 to-primary-950 px-6 py-10 text-white shadow-xl sm:px-10 md:flex-row md:items-center md:justify-between">
        <div className="flex items-start gap-4">
          <MessageCircleQuestion className="mt-1 hidden size-8 shrink-0 text-accent-300 sm:block" aria-hidden="true" />
          <div>
            <h2 className="text-2xl font-bold tracking-tight">{t('common.questions_title')}</h2>
            <p className="mt-2 max-w-xl text-white/75">{t('common.questions_text')}</p>
          </div>
        </div>
        <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
          {showFaq ? (
            <ButtonLink to={to('/faq')} variant="light" size="lg" className="!text-primary-950">
              {t('common.to_faq')}
            </ButtonLink>
          ) : null}
          <ButtonLink to={to('/contacts')} size="lg" className="!bg-white/10 ring-1 ring-white/25 hover:!bg-white/15">
            {t('common.to_contacts')}
            <ArrowRight className="size-4" aria-hidden="true" />
          </ButtonLink>
        </div>
      </div>
    </section>
  );
}
