import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FileDown, Mail, Phone } from 'lucide-react';
import { tariffPdfPath } from '@tipcard/shared/site/pages';
import { cn } from '../../components/ui/cn.ts';
import { Logo } from '../../components/ui/logo.tsx';
import { SocialLinks } from '../../components/ui/social-links.tsx';
import { currentLocale } from '../../lib/i18n.ts';
import { useSiteInfo } from '../../lib/site-info.ts';
import { openModal } from '../../lib/ui-store.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';

const linkClasses = (dark: boolean) =>
  cn(
    'rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400',
    dark ? 'text-white/75 hover:text-white' : 'text-slate-600 hover:text-primary-800',
  );

function Column({ title, children, dark }: { title: string; children: ReactNode; dark: boolean }) {
  return (
    <div>
      <h2 className={cn('text-sm font-semibold', dark ? 'text-white' : 'text-primary-950')}>{title}</h2>
      <ul className="mt-3 space-y-2 text-sm">{children}</ul>
    </div>
  );
}

/** Privacy, terms and cookie links, the cookie settings, and the tariff PDF: in every footer. */
function LegalLinks({ dark }: { dark: boolean }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const link = linkClasses(dark);
  return (
    <>
      <li>
        <Link to={to('/privacy')} className={link}>
          {t('footer.privacy')}
        </Link>
      </li>
      <li>
        <Link to={to('/terms')} className={link}>
          {t('footer.terms')}
        </Link>
      </li>
      <li>
        <Link to={to('/cookies')} className={link}>
          {t('footer.cookies')}
        </Link>
      </li>
      <li>
        <button type="button" onClick={() => openModal('cookie')} data-consent="settings" className={cn(link, 'text-left')}>
          {t('footer.cookie_settings')}
        </button>
      </li>
      <li>
        <a
          href={tariffPdfPath(currentLocale())}
          className={cn(link, 'inline-flex items-center gap-1.5')}
          data-testid="tariff-link"
        >
          <FileDown className="size-4" aria-hidden="true" />
          {t('footer.tariff')}
        </a>
      </li>
    </>
  );
}

/** Support contacts and company details as configured; unset ones are left out. */
function ContactLines({ dark }: { dark: boolean }) {
  const { t } = useTranslation();
  const site = useSiteInfo();
  const link = cn(linkClasses(dark), 'inline-flex items-center gap-1.5');
  const company = site?.company;
  const lines = [
    company?.name,
    company?.registration_number ? t('footer.registration', { value: company.registration_number }) : null,
    company?.licence ? t('footer.licence', { value: company.licence }) : null,
    company?.address,
  ].filter((line): line is string => Boolean(line));
  return (
    <>
      {site?.support.email ? (
        <li>
          <a href={`mailto:${site.support.email}`} className={link}>
            <Mail className="size-4" aria-hidden="true" />
            {site.support.email}
          </a>
        </li>
      ) : null}
      {site?.support.phone ? (
        <li>
          <a href={`tel:${site.support.phone.replace(/[^\d+]/g, '')}`} className={link}>
            <Phone className="size-4" aria-hidden="true" />
            {site.support.phone}
          </a>
        </li>
      ) : null}
      {lines.map((line) => (
        <li key={line} className={dark ? 'text-white/60' : 'text-slate-500'}>
          {line}
        </li>
      ))}
    </>
  );
}

/**
 * The footer (spec 2): privacy and terms links, contact details and the tariff PDF. The landing layout shows the
 * full site map on dark; the app's other layouts a compact light version.
 */
export function SiteFooter({ tone = 'light', wide = false }: { tone?: 'light' | 'dark'; wide?: boolean }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const dark = tone === 'dark';
  const year = new Date().getFullYear();

  if (!dark) {
    return (
      <footer className="border-t border-slate-200/70 bg-white text-slate-500">
        <div
          className={cn(
            'mx-auto flex flex-col gap-4 px-4 py-6 text-sm sm:px-6 lg:flex-row lg:items-start lg:justify-between',
            wide ? 'max-w-7xl' : 'max-w-6xl',
          )}
        >
          <p>{t('footer.rights', { year })}</p>
          <nav aria-label={t('footer.legal')}>
            <ul className="flex flex-wrap gap-x-5 gap-y-2">
              <LegalLinks dark={false} />
              <ContactLines dark={false} />
            </ul>
          </nav>
        </div>
      </footer>
    );
  }

  const link = linkClasses(true);
  return (
    <footer className="border-t border-white/10 bg-primary-950 text-white/70">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-[1.4fr_1fr_1fr_1.3fr]">
        <div>
          <Logo inverted />
          <p className="mt-3 max-w-xs text-sm leading-relaxed">{t('footer.tagline')}</p>
          <SocialLinks tone="dark" className="-ml-2 mt-4" />
        </div>
        <nav aria-label={t('footer.product')}>
          <Column title={t('footer.product')} dark>
            {(
              [
                ['/how-it-works', 'nav.how_it_works'],
                ['/about', 'nav.about'],
                ['/faq', 'nav.faq'],
                ['/affiliate-program', 'nav.affiliate'],
                ['/contacts', 'nav.contacts'],
              ] as const
            ).map(([path, key]) => (
              <li key={path}>
                <Link to={to(path)} className={link}>
                  {t(key)}
                </Link>
              </li>
            ))}
          </Column>
        </nav>
        <nav aria-label={t('footer.legal')}>
          <Column title={t('footer.legal')} dark>
            <LegalLinks dark />
          </Column>
        </nav>
        <Column title={t('footer.contact')} dark>
          <li>
            <Link to={to('/contacts')} className={link}>
              {t('nav.contacts')}
            </Link>
          </li>
          <ContactLines dark />
        </Column>
      </div>
      <div className="border-t border-white/10">
        <p className="mx-auto max-w-6xl px-4 py-5 text-xs text-white/60 sm:px-6">{t('footer.rights', { year })}</p>
      </div>
    </footer>
  );
}
