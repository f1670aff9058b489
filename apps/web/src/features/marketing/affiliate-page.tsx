import { useTranslation } from 'react-i18next';
import { ArrowRight, FileDown, Gift, Link2, Share2 } from 'lucide-react';
import { AGENT_SHEET_LOCALES, agentsPdfPath } from '@tipcard/shared/site/pages';
import { ButtonLink, buttonClasses } from '../../components/ui/button.tsx';
import { useNamespaces } from '../../lib/i18n.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { PageHero, Section } from '../../components/ui/page-hero.tsx';
import { QuestionsCta } from './components/questions-cta.tsx';

const STEPS = [
  { key: 'one', icon: Link2 },
  { key: 'two', icon: Share2 },
  { key: 'three', icon: Gift },
];
const RULES = ['cap', 'paid', 'payers', 'self', 'terms'];

export default function AffiliatePage() {
  useNamespaces(['marketing']);
  const { t } = useTranslation('marketing');
  const to = useLocalePath();
  useDocumentTitle(t('affiliate.eyebrow'));

  return (
    <>
      <PageHero eyebrow={t('affiliate.eyebrow')} title={t('affiliate.title')} lead={t('affiliate.lead')}>
        <ButtonLink to={to('/registration')} variant="light" size="lg" className="mt-8 !text-primary-950">
          {t('common.sign_up')}
          <ArrowRight className="size-4" aria-hidden="true" />
        </ButtonLink>
      </PageHero>

      <Section id="affiliate-steps-title" title={t('affiliate.steps_title')}>
        <ol className="mt-8 grid gap-5 md:grid-cols-3">
          {STEPS.map(({ key, icon: Icon }, index) => (
            <li key={key} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200/70">
              <span className="grid size-12 place-items-center rounded-2xl bg-primary-50 text-primary-800">
                <Icon className="size-6" aria-hidden="true" />
              </span>
              <h3 className="mt-5 text-lg font-semibold text-primary-950">
                <span className="text-primary-600">{index + 1}. </span>
                {t(`affiliate.steps.${key}.title`)}
              </h3>
              <p className="mt-2 text-sm leading-relaxed text-slate-600">{t(`affiliate.steps.${key}.text`)}</p>
            </li>
          ))}
        </ol>
      </Section>

      <div className="bg-white">
        <div className="mx-auto grid max-w-6xl grid-cols-1 gap-10 px-4 py-14 sm:px-6 lg:grid-cols-2">
          <section aria-labelledby="agents-title" className="rounded-2xl bg-primary-950 p-6 text-white sm:p-8">
            <FileDown className="size-8 text-accent-300" aria-hidden="true" />
            <h2 id="agents-title" className="mt-4 text-2xl font-bold tracking-tight">
              {t('affiliate.agents_title')}
            </h2>
            <p className="mt-2 text-white/75">{t('affiliate.agents_text')}</p>
            <ul className="mt-6 flex flex-col gap-3 sm:flex-row">
              {AGENT_SHEET_LOCALES.map((locale) => (
                <li key={locale}>
                  <a
                    href={agentsPdfPath(locale)}
                    hrefLang={locale}
                    className={`${buttonClasses('light')} !whitespace-normal text-left !text-primary-950`}
                    data-testid={`agents-pdf-${locale}`}
                  >
                    <FileDown className="size-4" aria-hidden="true" />
                    {t(`affiliate.agents_${locale}`)}
                  </a>
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="rules-title">
            <h2 id="rules-title" className="text-2xl font-bold tracking-tight text-primary-950">
              {t('affiliate.rules_title')}
            </h2>
            <ul className="mt-5 list-disc space-y-2 pl-5 text-slate-700 marker:text-accent-500">
              {RULES.map((key) => (
                <li key={key}>{t(`affiliate.rules.${key}`)}</li>
              ))}
            </ul>
          </section>
        </div>
      </div>

      <div className="pt-14">
        <QuestionsCta />
      </div>
    </>
  );
}
