import { useTranslation } from 'react-i18next';
import { Camera, Check, Copy, ExternalLink, MapPin, Pencil, Star } from 'lucide-react';
import { Avatar } from '../../components/ui/avatar.tsx';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { PageHeader, Panel } from '../../components/ui/page-header.tsx';
import { useCopyLink } from '../../lib/share-link.ts';
import { countryName } from '../../lib/countries.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { useMyCard } from '../../app/session/use-my-card.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

function SocialLink({ label, href }: { label: string; href: string | null }) {
  if (!href) return null;
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className="inline-flex items-center gap-1.5 rounded-full bg-slate-100 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-primary-50 hover:text-primary-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400"
    >
      {label}
      <ExternalLink className="size-3.5" aria-hidden="true" />
    </a>
  );
}

export default function CardPage() {
  const { t } = useTranslation('account');
  const to = useLocalePath();
  const { card } = useMyCard();
  const { copied, copy } = useCopyLink();
  useDocumentTitle(t('view.title'));
  if (!card) return null;

  const country = countryName(card.country, currentLocale());

  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader
        title={t('view.title')}
        description={t('view.description')}
        actions={
          <>
            <ButtonLink to={to('/account/add-photo')} variant="secondary" icon={<Camera className="size-4" aria-hidden="true" />}>
              {card.image_url ? t('view.change_photo') : t('view.add_photo')}
            </ButtonLink>
            <ButtonLink to={to('/account/edit')} icon={<Pencil className="size-4" aria-hidden="true" />}>
              {t('view.edit')}
            </ButtonLink>
          </>
        }
      />
      <div className="grid grid-cols-[minmax(0,1fr)] gap-5 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <Panel>
          <div className="flex items-start gap-4">
            <Avatar
              src={card.image_url}
              name={card.public_name}
              alt={t('view.photo_alt', { name: card.public_name })}
              className="size-20 sm:size-24"
            />
            <div className="min-w-0 flex-1">
              <p className="text-sm font-medium text-slate-500">{card.title}</p>
              <h2 className="break-words text-xl font-bold text-primary-950 [overflow-wrap:anywhere]">{card.public_name}</h2>
              <div className="mt-2 flex flex-wrap items-center gap-2 text-sm text-slate-600">
                <span className="rounded-full bg-primary-50 px-2.5 py-0.5 font-medium text-primary-800">
                  {t(`common:activity_types.${card.activity_type}`)}
                </span>
                <span className="inline-flex items-center gap-1">
                  <MapPin className="size-3.5" aria-hidden="true" />
                  {country}
                </span>
                {card.rating !== null ? (
                  <span className="inline-flex items-center gap-1">
                    <Star className="size-3.5 fill-amber-400 text-amber-400" aria-hidden="true" />
                    {t('view.rating', {
                      rating: new Intl.NumberFormat(currentLocale(), {
                        minimumFractionDigits: 1,
                        maximumFractionDigits: 1,
                      }).format(card.rating),
                    })}
                  </span>
                ) : null}
              </div>
            </div>
          </div>
          <dl className="mt-6 space-y-5 border-t border-slate-100 pt-5">
            <div>
              <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t('form.welcome_phrase')}</dt>
              <dd className="mt-1 text-slate-800">
                {card.welcome_phrase || <span className="italic text-slate-500">{t('view.empty')}</span>}
              </dd>
            </div>
            <div>
              <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t('form.public_text')}</dt>
              <dd className="mt-1 whitespace-pre-line text-slate-800">
                {card.public_text || <span className="italic text-slate-500">{t('view.empty')}</span>}
              </dd>
            </div>
            {card.instagram || card.facebook || card.tiktok ? (
              <div>
                <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t('form.social_section')}</dt>
                <dd className="mt-2 flex flex-wrap gap-2">
                  <SocialLink label="Instagram" href={card.instagram} />
                  <SocialLink label="Facebook" href={card.facebook} />
                  <SocialLink label="TikTok" href={card.tiktok} />
                </dd>
              </div>
            ) : null}
          </dl>
        </Panel>
        <Panel className="h-fit">
          <h2 className="text-base font-semibold text-primary-950">{t('view.payment_link')}</h2>
          <p className="mt-1 text-sm text-slate-600">{t('view.payment_link_hint')}</p>
          <p className="mt-4 break-all rounded-xl bg-slate-50 px-3 py-2.5 font-mono text-xs text-slate-700 ring-1 ring-slate-200">
            {card.payment_url}
          </p>
          <div className="mt-3 grid gap-2">
            <Button
              variant="secondary"
              onClick={() => void copy(card.payment_url)}
              icon={copied ? <Check className="size-4" aria-hidden="true" /> : <Copy className="size-4" aria-hidden="true" />}
            >
              {copied ? t('common:actions.copied') : t('view.copy_link')}
            </Button>
          </div>
          <p className="sr-only" aria-live="polite">
            {copied ? t('common:actions.copied') : ''}
          </p>
        </Panel>
      </div>
    </div>
  );
}
