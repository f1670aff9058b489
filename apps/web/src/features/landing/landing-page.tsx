import { useTranslation } from 'react-i18next';
import { ArrowRight, Banknote, CalendarClock, QrCode, ShieldCheck, Smartphone, Sparkles, UserPlus } from 'lucide-react';
import { ButtonLink } from '../../components/ui/button.tsx';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { HeroVisual } from './components/hero-visual.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

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
        <div className="pointer-events-none absolute inset-0 bg-[radial-gradient(60rem_30rem_at_80%_-10%,rgba(45,212,191,0.18),transparent),radial-gradient(40rem_30rem_at_0%_100%,rgba(58,98,182,0.35),transparent)]" aria-hidden="true" />
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
                <span data-step={`0${index + 1}`} className="text-4xl font-bold text-slate-100 before:content-[attr(data-step)]" aria-hidden="true" />
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
