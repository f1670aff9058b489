import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfiguredFigures } from '../../../lib/site-info.ts';
import { useNamespaces } from '../../../lib/i18n.ts';
import { useDocumentTitle } from '../../../lib/use-document-title.ts';
import { OperatorDetails } from '../../../components/ui/operator-details.tsx';

interface LegalSection {
  title: string;
  paragraphs?: string[];
  items?: string[];
}

/** A legal text from the `legal` catalog: title, date, lead, then numbered sections of paragraphs and lists. */
export function LegalDocument({ name, children }: { name: 'terms' | 'privacy' | 'cookies'; children?: ReactNode }) {
  useNamespaces(['legal', 'marketing']);
  const { t } = useTranslation('legal');
  useDocumentTitle(t(`${name}.title`));
  const figures = useConfiguredFigures();
  const sections = Object.entries(t(`${name}.sections`, { returnObjects: true, ...figures }) as Record<string, LegalSection>);

  return (
    <div className="bg-white">
      <article className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
        <header className="border-b border-slate-200 pb-8">
          <h1 className="text-3xl font-bold tracking-tight text-primary-950 sm:text-4xl">{t(`${name}.title`)}</h1>
          <p className="mt-2 text-sm text-slate-500">{t('marketing:common.updated', { date: t('updated_date') })}</p>
          <p className="mt-5 text-lg leading-relaxed text-slate-700">{t(`${name}.lead`)}</p>
        </header>
        <nav aria-labelledby="toc-title" className="mt-8 rounded-2xl bg-slate-50 p-5 ring-1 ring-slate-200/70">
          <h2 id="toc-title" className="text-sm font-semibold uppercase tracking-wide text-slate-500">
            {t('marketing:common.on_this_page')}
          </h2>
          <ol className="mt-3 grid gap-1.5 text-sm sm:grid-cols-2">
            {sections.map(([key, section]) => (
              <li key={key}>
                <a
                  href={`#${key}`}
                  onClick={(event) => {
                    // Hash routing owns the URL hash: scroll to the section without navigating.
                    event.preventDefault();
                    document.getElementById(`section-${key}`)?.scrollIntoView({ behavior: 'smooth' });
                  }}
                  className="text-primary-800 underline-offset-4 hover:underline"
                >
                  {section.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>
        {children}
        {sections.map(([key, section]) => (
          <section key={key} id={`section-${key}`} aria-labelledby={`heading-${key}`} className="mt-10 scroll-mt-6">
            <h2 id={`heading-${key}`} className="text-xl font-semibold text-primary-950">
              {section.title}
            </h2>
            {section.paragraphs?.map((paragraph) => (
              <p key={paragraph} className="mt-3 leading-relaxed text-slate-700">
                {paragraph}
              </p>
            ))}
            {section.items ? (
              <ul className="mt-3 list-disc space-y-2 pl-5 leading-relaxed text-slate-700 marker:text-accent-500">
                {section.items.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            ) : null}
          </section>
        ))}
        <div className="mt-12">
          <OperatorDetails />
        </div>
      </article>
    </div>
  );
}
