import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import QRCode from 'qrcode';
import { Copy, Gift, Share2, Users } from 'lucide-react';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { LoadError } from '../../components/ui/list-state.tsx';
import { Money } from '../../components/ui/money.tsx';
import { PageHeader, Panel } from '../../components/ui/page-header.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { canShare, shareLink, useCopyLink } from '../../lib/share-link.ts';
import { formatEuro } from '../../lib/format-euro.ts';
import { showSnackbar } from '../../lib/ui-store.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { useMyCard } from '../../app/session/use-my-card.ts';
import { useReferralSummary } from './api/use-referrals.ts';

/** The link's QR code, drawn in the browser: the link is public, nothing needs the server. */
function useLinkQr(link: string | undefined) {
  return useQuery({
    queryKey: ['referral-qr', link],
    queryFn: () =>
      QRCode.toDataURL(link!, { errorCorrectionLevel: 'M', margin: 2, width: 320, color: { dark: '#132552', light: '#ffffff' } }),
    enabled: Boolean(link),
    staleTime: Infinity,
  });
}

/** /referrals: the personal link with copy, share and a QR code, the programme's rule and the totals. */
export default function ReferralsPage() {
  const { t } = useTranslation('referrals');
  const to = useLocalePath();
  const { clientId } = useMyCard();
  const summary = useReferralSummary(clientId);
  const data = summary.data;
  const qr = useLinkQr(data?.link);
  useDocumentTitle(t('title'));
  const { copy } = useCopyLink();

  async function copyLink() {
    if (!data) return;
    if (await copy(data.link)) showSnackbar(t('copied'), 'success');
    else showSnackbar(t('copy_failed'));
  }

  return (
    <div className="mx-auto max-w-4xl space-y-5">
      <PageHeader title={t('title')} description={t('description')} />
      {summary.isError ? (
        <Panel>
          <LoadError text={t('error')} onRetry={summary.refetch} />
        </Panel>
      ) : (
        <>
          <Panel>
            <h2 className="text-base font-semibold text-primary-950">{t('link.title')}</h2>
            <div className="mt-4 grid gap-5 sm:grid-cols-[1fr_auto] sm:items-start">
              <div className="min-w-0 space-y-3">
                <label htmlFor="referral-link" className="text-sm font-medium text-slate-800">
                  {t('link.label')}
                </label>
                <input
                  id="referral-link"
                  readOnly
                  value={data?.link ?? ''}
                  aria-busy={summary.isPending || undefined}
                  onFocus={(event) => event.currentTarget.select()}
                  className="block h-11 w-full rounded-xl border border-slate-300 bg-slate-50 px-3.5 font-mono text-sm text-slate-900"
                  data-testid="referral-link"
                />
                <p className="text-sm text-slate-600">
                  {t('link.code')} <span className="font-mono font-semibold text-primary-950">{data?.code ?? '…'}</span>
                </p>
                <div className="flex flex-col gap-2 sm:flex-row">
                  <Button onClick={() => void copyLink()} disabled={!data} icon={<Copy className="size-4" aria-hidden="true" />}>
                    {t('link.copy')}
                  </Button>
                  {canShare() && data ? (
                    <Button
                      variant="secondary"
                      onClick={() => void shareLink({ title: t('share_title'), text: t('share_text'), url: data.link })}
                      disabled={!data}
                      icon={<Share2 className="size-4" aria-hidden="true" />}
                    >
                      {t('link.share')}
                    </Button>
                  ) : null}
                </div>
              </div>
              <div className="mx-auto size-40 shrink-0 rounded-xl bg-white p-1 ring-1 ring-slate-200">
                {qr.data ? (
                  <img src={qr.data} alt={t('link.qr_alt')} className="size-full" />
                ) : (
                  <Skeleton className="size-full" />
                )}
              </div>
            </div>
          </Panel>

          <div className="grid gap-4 sm:grid-cols-3">
            {(
              [
                ['earned', data?.earned_cents],
                ['pending', data?.pending_cents],
              ] as const
            ).map(([key, cents]) => (
              <Panel key={key}>
                <p className="text-sm text-slate-600">{t(`totals.${key}`)}</p>
                <p className="mt-1 text-2xl font-bold text-primary-950 tabular-nums">
                  {cents === undefined ? '…' : <Money cents={cents} testId={`referrals-${key}`} />}
                </p>
              </Panel>
            ))}
            <Panel>
              <p className="text-sm text-slate-600">{t('totals.friends')}</p>
              <p className="mt-1 text-2xl font-bold text-primary-950 tabular-nums" data-testid="referrals-friends">
                {data?.friends ?? '…'}
              </p>
              <ButtonLink
                to={to('/referrals/referrals-list')}
                variant="ghost"
                size="sm"
                className="-ml-3 mt-2"
                icon={<Users className="size-4" aria-hidden="true" />}
              >
                {t('totals.see_friends')}
              </ButtonLink>
            </Panel>
          </div>

          <Panel>
            <h2 className="flex items-center gap-2 text-base font-semibold text-primary-950">
              <Gift className="size-5 text-accent-500" aria-hidden="true" />
              {t('rule.title', { cap: formatEuro(data?.cap_cents ?? 1000) })}
            </h2>
            <ul className="mt-3 list-disc space-y-1.5 pl-5 text-sm text-slate-700 marker:text-accent-500">
              <li>{t('rule.fees', { count: data?.window_days ?? 90, cap: formatEuro(data?.cap_cents ?? 1000) })}</li>
              <li>{t('rule.paid', { days: data?.window_days ?? 90 })}</li>
              <li>{t('rule.payers', { count: data?.min_payers ?? 3 })}</li>
              <li>{t('rule.self')}</li>
            </ul>
          </Panel>
        </>
      )}
    </div>
  );
}
