import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertTriangle, CircleHelp, ShieldCheck, ShieldQuestion } from 'lucide-react';
import type { PayeeCheck } from '@tipcard/shared/payouts/schemas';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { currentLocale } from '../../../lib/i18n.ts';

/**
 * The bank's answer to the payee-name check before saving (decision 0043): a close match offers the name the bank
 * holds in one tap or keeping the typed one; no match and not possible need an explicit "save anyway". It takes the
 * focus when it appears, so a screen reader reads it before anything else.
 */
export function PayeeCheckNotice({
  answer,
  typedName,
  saving,
  onUseName,
  onConfirm,
}: {
  answer: PayeeCheck;
  typedName: string;
  saving: boolean;
  onUseName: (name: string) => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation('payouts');
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [answer]);
  const closeMatch = answer.result === 'close_match' && answer.bank_name;
  // A long name in French or Spanish wraps instead of running out of the button at 360 px.
  const wrap = '!h-auto min-h-12 !whitespace-normal py-2 text-center sm:shrink-0';

  return (
    <section
      aria-labelledby="payee-check-title"
      className={cn(
        'space-y-3 rounded-xl p-4 ring-1 ring-inset',
        answer.result === 'no_match' ? 'bg-red-50 ring-red-200' : 'bg-amber-50 ring-amber-200',
      )}
      data-testid="payee-check-notice"
    >
      <h3
        id="payee-check-title"
        ref={heading}
        tabIndex={-1}
        className="flex items-start gap-2 font-semibold text-slate-900 focus:outline-none"
      >
        <AlertTriangle
          className={cn('mt-0.5 size-5 shrink-0', answer.result === 'no_match' ? 'text-red-700' : 'text-amber-700')}
          aria-hidden="true"
        />
        {t(`payee.notice.${answer.result}.title`)}
      </h3>
      <p className="text-sm text-slate-700">
        {closeMatch
          ? t('payee.notice.close_match.text', { name: answer.bank_name, typed: typedName })
          : t(`payee.notice.${answer.result}.text`)}
      </p>
      {closeMatch ? (
        <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
          <Button size="lg" className={wrap} disabled={saving} onClick={() => onUseName(answer.bank_name!)}>
            {t('payee.notice.use', { name: answer.bank_name })}
          </Button>
          <Button variant="secondary" size="lg" className={wrap} disabled={saving} onClick={onConfirm}>
            {t('payee.notice.keep', { name: typedName })}
          </Button>
        </div>
      ) : (
        <>
          <p className="text-sm text-slate-700">{t('payee.notice.correct')}</p>
          <Button variant="secondary" size="lg" className={wrap} disabled={saving} onClick={onConfirm}>
            {t('payee.notice.save_anyway')}
          </Button>
        </>
      )}
    </section>
  );
}

const ICONS = { match: ShieldCheck, close_match: CircleHelp, no_match: AlertTriangle, not_possible: ShieldQuestion };

/** The answer kept with a method, one line under it: what the bank said and when (or that it was never asked). */
export function PayeeCheckLine({ check, withDate = false }: { check: PayeeCheck | null; withDate?: boolean }) {
  const { t } = useTranslation('payouts');
  const result = check?.result ?? 'not_checked';
  const Icon = check ? ICONS[check.result] : ShieldQuestion;
  const text = t(`payee.status.${result}`, { name: check?.bank_name ?? '' });
  return (
    <p
      className={cn(
        'mt-1 flex items-start gap-1 text-xs',
        result === 'match' ? 'text-emerald-700' : result === 'no_match' ? 'text-red-700' : 'text-amber-800',
      )}
      data-testid="payee-check-line"
    >
      <Icon className="mt-px size-3.5 shrink-0" aria-hidden="true" />
      <span>
        {text}
        {check && withDate ? ` · ${formatDate(check.checked_at, 'listDate', currentLocale())}` : ''}
      </span>
    </p>
  );
}
