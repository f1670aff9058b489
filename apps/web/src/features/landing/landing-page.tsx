import { useTranslation } from 'react-i18next';
import {
  ArrowRight,
  Banknote,
  BedDouble,
  CalendarClock,
  CheckCircle2,
  FileDown,
  HandHeart,
  Megaphone,
  QrCode,
  Scissors,
  ShieldCheck,
  ShoppingBag,
  Smartphone,
  Sparkles,
  UserPlus,
  UtensilsCrossed,
  type LucideIcon,
} from 'lucide-react';
import { ACTIVITY_TYPES, type ActivityType } from '@tipcard/shared/constants';
import { tariffPdfPath } from '@tipcard/shared/site/pages';
import { ButtonLink, buttonClasses } from '../../components/ui/button.tsx';
import { currentLocale } from '../../lib/i18n.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { HeroVisual } from './components/hero-visual.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

const ACTIVITY_ICONS: Record<ActivityType, LucideIcon> = {
  WAITER: UtensilsCrossed,
  HOUSEMAID: BedDouble,
  BEAUTY_INDUSTRY: Scissors,
  DISTRIBUTION: Megaphone,
  DONATION: HandHeart,
  PRODUCTS_AND_SERVICES: ShoppingBag,
  OTHER: Sparkles,
};
const PRICING = ['free', 'fee', 'payout', 'time'] as const;
const TRUST = ['licensed', 'cards', 'gdpr', 'own_account'] as const;

export default function LandingPage() {
  const { t } = useTranslation('landing');
  const to = useLocalePath();
  useDocumentTitle(t('hero.title'));

  const steps = [
    { icon: UserPlus, title: t('steps.one_title'), text: t('steps.one_text') },
    { icon: QrCode, title: t('steps.two_title'), text: t('steps.two_text') },
    { icon: Banknote, title: t('steps.three_title'), text: t('steps.three_text') },
  ];
  const facts = [
    { icon: Sparkles, text: t('facts.free') },
    { icon: CalendarClock, text: t('facts.payout') },
    { icon: ShieldCheck, text: t('facts.licensed') },
  ];

  return (
    <>
      <section className="relative overflow-hidden bg-primary-950 text-white">
        <div
          className="pointer-events-none absolute inset-0 bg-[radial-gradient(60rem_30rem_at_80%_-10%,rgba(45,212,191,0.18),transparent),radial-gradient(40rem_30rem_at_0%_100%,rgba(58,98,182,0.35),transparent)]"
          aria-hidden="true"
        />
        <div className="relative mx-auto grid max-w-6xl items-center gap-12 px-4 pb-20 pt-12 sm:px-6 md:grid-cols-[1.15fr_1fr] md:pb-28 md:pt-20">
          <div>
            <p className="inline-flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-xs font-semibold uppercase tracking-wider text-accent-300 ring-1 ring-white/15">
              <Smartphone className="size-3.5" aria-hidden="true" />
              {t('hero.eyebrow')}
            </p>
            <h1 className="mt-5 text-4xl font-bold leading-[1.1] tracking-tight sm:text-5xl lg:text-6xl">{t('hero.title')}</h1>
            <p className="mt-5 max-w-xl text-base leading-relaxed text-white/75 sm:text-lg">{t('hero.text')}</p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <ButtonLink to={to('/registration')} variant="light" size="lg" className="!text-primary-950">
                {t('hero.cta')}
                <ArrowRight className="size-4" aria-hidden="true" />
              </ButtonLink>
              <ButtonLink to={to('/login')} size="lg" className="!bg-white/10 ring-1 ring-white/20 hover:!bg-white/15">
                {t('common:actions.log_in')}
              </ButtonLink>
            </div>
            <ul className="mt-10 grid gap-3 text-sm text-white/80 sm:grid-cols-3">
              {facts.map(({ icon: Icon, text }) => (
                <li key={text} className="flex items-center gap-2">
                  <Icon className="size-4 shrink-0 text-accent-300" aria-hidden="true" />
                  {text}
                </li>
              ))}
            </ul>
          </div>
          <HeroVisual />
        </div>
      </section>

      <section id="how-it-works" aria-labelledby="steps-title" className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
        <div className="max-w-2xl">
          <p className="text-sm font-semibold uppercase tracking-wider text-primary-600">{t('steps.eyebrow')}</p>
          <h2 id="steps-title" className="mt-2 text-3xl font-bold tracking-tight text-primary-950 sm:text-4xl">
            {t('steps.title')}
          </h2>
          <p className="mt-3 text-slate-600">{t('steps.text')}</p>
        </div>
        <ol className="mt-10 grid gap-5 md:grid-cols-3">
          {steps.map(({ icon: Icon, title, text }, index) => (
            <li key={title} className="relative rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200/70">
              <div className="flex items-center justify-between">
                <span className="grid size-12 place-items-center rounded-2xl bg-primary-50 text-primary-800">
                  <Icon className="size-6" aria-hidden="true" />
                </span>
                {/* Decorative step number, drawn by CSS so it is neither read out nor measured as text. */}
                <span
                  data-step={`0${index + 1}`}
                  className="text-4xl font-bold text-slate-100 before:content-[attr(data-step)]"
                  aria-hidden="true"
                />
              </div>
              <h3 className="mt-5 text-lg font-semibold text-primary-950">
                <span className="sr-only">{index + 1}. </span>
                {title}
              </h3>
              <p className="mt-2 text-sm leading-relaxed text-slate-600">{text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="audience-title" className="bg-white">
        <div className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
          <div className="max-w-2xl">
            <p className="text-sm font-semibold uppercase tracking-wider text-primary-600">{t('audience.eyebrow')}</p>
            <h2 id="audience-title" className="mt-2 text-3xl font-bold tracking-tight text-primary-950 sm:text-4xl">
              {t('audience.title')}
            </h2>
            <p className="mt-3 text-slate-600">{t('audience.text')}</p>
          </div>
          <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {ACTIVITY_TYPES.map((type) => {
              const Icon = ACTIVITY_ICONS[type];
              return (
                <li key={type} className="rounded-2xl bg-slate-50 p-5 ring-1 ring-slate-200/70">
                  <Icon className="size-6 text-primary-700" aria-hidden="true" />
                  <h3 className="mt-3 font-semibold text-primary-950">{t(`common:activity_types.${type}`)}</h3>
                  <p className="mt-1 text-sm leading-relaxed text-slate-600">{t(`audience.items.${type}`)}</p>
                </li>
              );
            })}
          </ul>
        </div>
      </section>

      <section aria-labelledby="pricing-title" className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
        <div className="grid gap-10 lg:grid-cols-[1.3fr_1fr]">
          <div>
            <p className="text-sm font-semibold uppercase tracking-wider text-primary-600">{t('pricing.eyebrow')}</p>
            <h2 id="pricing-title" className="mt-2 text-3xl font-bold tracking-tight text-primary-950 sm:text-4xl">
              {t('pricing.title')}
            </h2>
            <dl className="mt-8 grid gap-4 sm:grid-cols-2">
              {PRICING.map((key) => (
                <div key={key} className="flex flex-col rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200/70">
                  <dt className="order-last mt-1 text-sm text-slate-600">{t(`pricing.items.${key}.label`)}</dt>
                  <dd className="text-2xl font-bold text-primary-900">{t(`pricing.items.${key}.value`)}</dd>
                </div>
              ))}
            </dl>
            <a href={tariffPdfPath(currentLocale())} className={`${buttonClasses('secondary')} mt-6`}>
              <FileDown className="size-4" aria-hidden="true" />
              {t('pricing.tariff')}
            </a>
          </div>
          <div className="rounded-3xl bg-primary-950 p-6 text-white sm:p-8">
            <ShieldCheck className="size-8 text-accent-300" aria-hidden="true" />
            <h2 className="mt-4 text-2xl font-bold tracking-tight">{t('trust.title')}</h2>
            <ul className="mt-5 space-y-3">
              {TRUST.map((key) => (
                <li key={key} className="flex items-start gap-3 text-sm leading-relaxed text-white/80">
                  <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-accent-300" aria-hidden="true" />
                  {t(`trust.points.${key}`)}
                </li>
              ))}
            </ul>
          </div>
        </div>
        <div className="mt-12 flex flex-col items-start gap-4 border-t border-slate-200 pt-8 sm:flex-row sm:items-center sm:justify-between">
          <div>
            <h2 className="text-lg font-semibold text-primary-950">{t('more.title')}</h2>
            <p className="text-sm text-slate-600">{t('more.text')}</p>
          </div>
          <div className="flex flex-wrap gap-3">
            <ButtonLink to={to('/faq')} variant="secondary">
              {t('more.faq')}
            </ButtonLink>
            <ButtonLink to={to('/how-it-works')} variant="ghost">
              {t('more.how')}
              <ArrowRight className="size-4" aria-hidden="true" />
            </ButtonLink>
          </div>
        </div>
      </section>

      <section className="px-4 pb-20 sm:px-6">
        <div className="mx-auto flex max-w-6xl flex-col items-start gap-6 rounded-3xl bg-gradient-to-br from-primary-800 to-primary-950 px-6 py-10 text-white shadow-xl sm:px-10 md:flex-row md:items-center md:justify-between">
          <div>
            <h2 className="text-2xl font-bold tracking-tight sm:text-3xl">{t('cta.title')}</h2>
            <p className="mt-2 max-w-xl text-white/75">{t('cta.text')}</p>
          </div>
          <ButtonLink to={to('/registration')} variant="light" size="lg" className="shrink-0 !text-primary-950">
            {t('cta.button')}
            <ArrowRight className="size-4" aria-hidden="true" />
          </ButtonLink>
        </div>
      </section>
    </>
  );
}
