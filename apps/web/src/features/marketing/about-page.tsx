import { useTranslation } from 'react-i18next';
import { Globe2, Eye, ShieldCheck, Zap } from 'lucide-react';
import { useNamespaces } from '../../lib/i18n.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { OperatorDetails } from '../../components/ui/operator-details.tsx';
import { PageHero, Section } from '../../components/ui/page-hero.tsx';
import { QuestionsCta } from './components/questions-cta.tsx';

const VALUES = [
  { key: 'transparent', icon: Eye },
  { key: 'fast', icon: Zap },
  { key: 'safe', icon: ShieldCheck },
  { key: 'european', icon: Globe2 },
];
const NUMBERS = ['seconds', 'payout', 'fee', 'languages'];

export default function AboutPage() {
  useNamespaces(['marketing']);
  const { t } = useTranslation('marketing');
  useDocumentTitle(t('about.eyebrow'));

  return (
    <>
      <PageHero eyebrow={t('about.eyebrow')} title={t('about.title')} lead={t('about.lead')} />

      <Section id="mission-title" title={t('about.mission_title')}>
        <div className="mt-6 grid gap-8 lg:grid-cols-[1.5fr_1fr]">
          <p className="text-lg leading-relaxed text-slate-700">{t('about.mission_text')}</p>
          <div>
            <h3 className="sr-only">{t('about.numbers_title')}</h3>
            <dl className="grid grid-cols-2 gap-3">
              {NUMBERS.map((key) => (
                <div key={key} className="flex flex-col rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200/70">
                  <dt className="text-xs leading-snug text-slate-600">{t(`about.numbers.${key}.label`)}</dt>
                  <dd className="order-first text-2xl font-bold text-primary-900">{t(`about.numbers.${key}.value`)}</dd>
                </div>
              ))}
            </dl>
          </div>
        </div>
      </Section>

      <div className="bg-white">
        <Section id="values-title" title={t('about.values_title')}>
          <ul className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
            {VALUES.map(({ key, icon: Icon }) => (
              <li key={key} className="rounded-2xl bg-slate-50 p-6 ring-1 ring-slate-200/70">
                <Icon className="size-7 text-primary-700" aria-hidden="true" />
                <h3 className="mt-4 font-semibold text-primary-950">{t(`about.values.${key}.title`)}</h3>
                <p className="mt-2 text-sm leading-relaxed text-slate-600">{t(`about.values.${key}.text`)}</p>
              </li>
            ))}
          </ul>
        </Section>
      </div>

      <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6">
        <OperatorDetails />
      </div>
      <QuestionsCta />
    </>
  );
}
