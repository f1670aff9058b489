import { useTranslation } from 'react-i18next';
import {
  ArrowRight,
  Banknote,
  Camera,
  CheckCircle2,
  CircleDollarSign,
  Clock3,
  CreditCard,
  Download,
  Landmark,
  QrCode,
  Smartphone,
  UserPlus,
  Users,
  Wallet,
  type LucideIcon,
} from 'lucide-react';
import { tariffPdfPath } from '@tipcard/shared/site/pages';
import { ButtonLink, buttonClasses } from '../../components/ui/button.tsx';
import { currentLocale, useNamespaces } from '../../lib/i18n.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { PageHero, Section } from '../../components/ui/page-hero.tsx';
import { QuestionsCta } from './components/questions-cta.tsx';

function Steps({ prefix, steps }: { prefix: string; steps: { key: string; icon: LucideIcon }[] }) {
  const { t } = useTranslation('marketing');
  return (
    <ol className={`mt-8 grid gap-5 sm:grid-cols-2 ${steps.length === 4 ? 'lg:grid-cols-4' : 'lg:grid-cols-3'}`}>
      {steps.map(({ key, icon: Icon }, index) => (
        <li key={key} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200/70">
          <span className="grid size-12 place-items-center rounded-2xl bg-primary-50 text-primary-800">
            <Icon className="size-6" aria-hidden="true" />
          </span>
          <h3 className="mt-5 text-lg font-semibold text-primary-950">
            <span className="text-primary-600">{index + 1}. </span>
            {t(`${prefix}.${key}.title`)}
          </h3>
          <p className="mt-2 text-sm leading-relaxed text-slate-600">{t(`${prefix}.${key}.text`)}</p>
        </li>
      ))}
    </ol>
  );
}

export default function HowItWorksPage() {
  useNamespaces(['marketing']);
  const { t } = useTranslation('marketing');
  const to = useLocalePath();
  useDocumentTitle(t('how_it_works.title'));

  const money = [
    { key: 'paid', icon: CreditCard },
    { key: 'hold', icon: Clock3 },
    { key: 'available', icon: Wallet },
    { key: 'payout', icon: Landmark },
  ];
  const fees = ['registration', 'fee', 'payout', 'automatic', 'instant', 'closing', 'verification'];

  return (
    <>
      <PageHero eyebrow={t('how_it_works.eyebrow')} title={t('how_it_works.title')} lead={t('how_it_works.lead')}>
        <ButtonLink to={to('/registration')} variant="light" size="lg" className="mt-8 !text-primary-950">
          {t('common.sign_up')}
          <ArrowRight className="size-4" aria-hidden="true" />
        </ButtonLink>
      </PageHero>

      <Section id="staff-title" title={t('how_it_works.staff_title')}>
        <Steps
          prefix="how_it_works.staff"
          steps={[
            { key: 'one', icon: UserPlus },
            { key: 'two', icon: QrCode },
            { key: 'three', icon: Download },
            { key: 'four', icon: Banknote },
          ]}
        />
      </Section>

      <div className="bg-white">
        <Section id="guests-title" title={t('how_it_works.guests_title')}>
          <Steps
            prefix="how_it_works.guests"
            steps={[
              { key: 'one', icon: Camera },
              { key: 'two', icon: CircleDollarSign },
              { key: 'three', icon: Smartphone },
            ]}
          />
        </Section>
      </div>

      <Section id="money-title" title={t('how_it_works.money_title')}>
        <ol className="mt-8 grid gap-4 md:grid-cols-4">
          {money.map(({ key, icon: Icon }) => (
            <li key={key} className="relative flex gap-4 rounded-2xl bg-primary-950 p-5 text-white md:flex-col">
              <Icon className="size-6 shrink-0 text-accent-300" aria-hidden="true" />
              <div>
                <h3 className="font-semibold">{t(`how_it_works.money.${key}.title`)}</h3>
                <p className="mt-1 text-sm leading-relaxed text-white/75">{t(`how_it_works.money.${key}.text`)}</p>
              </div>
            </li>
          ))}
        </ol>
      </Section>

      <div className="bg-white">
        <Section id="fees-title" title={t('how_it_works.fees_title')}>
          <div className="mt-8 grid gap-10 lg:grid-cols-[1.4fr_1fr]">
            <div>
              <ul className="space-y-3">
                {fees.map((key) => (
                  <li key={key} className="flex items-start gap-3 text-slate-700">
                    <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-accent-500" aria-hidden="true" />
                    {t(`how_it_works.fees.${key}`)}
                  </li>
                ))}
              </ul>
              <a href={tariffPdfPath(currentLocale())} className={`${buttonClasses('secondary')} mt-6`}>
                <Download className="size-4" aria-hidden="true" />
                {t('common.download_tariff')}
              </a>
            </div>
            <div className="rounded-2xl bg-primary-50 p-6 ring-1 ring-primary-100">
              <Users className="size-7 text-primary-800" aria-hidden="true" />
              <h3 className="mt-3 text-lg font-semibold text-primary-950">{t('how_it_works.teams_title')}</h3>
              <p className="mt-2 text-sm leading-relaxed text-slate-700">{t('how_it_works.teams_text')}</p>
            </div>
          </div>
        </Section>
      </div>

      <div className="pt-14">
        <QuestionsCta />
      </div>
    </>
  );
}
