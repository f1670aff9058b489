import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Building2, Landmark } from 'lucide-react';
import type { PayoutMethod } from '@tipcard/shared/payouts/schemas';
import { cn } from '../../../components/ui/cn.ts';
import { shortMask } from '../format.ts';
import { PayeeCheckLine } from './payee-check.tsx';

/** The icon tile of a method: SEPA (IBAN) or UK account. */
export function MethodIcon({ kind, className }: { kind: PayoutMethod['kind']; className?: string }) {
  const Icon = kind === 'sepa' ? Landmark : Building2;
  return (
    <span
      className={cn('grid size-10 shrink-0 place-items-center rounded-xl bg-primary-50 text-primary-700', className)}
      aria-hidden="true"
    >
      <Icon className="size-5" />
    </span>
  );
}

/** "Default" next to the method payouts go to unless the user picks another. */
export function DefaultBadge() {
  const { t } = useTranslation('payouts');
  return (
    <span className="inline-flex items-center rounded-full bg-accent-400/15 px-2 py-0.5 text-xs font-semibold text-teal-800 ring-1 ring-inset ring-accent-400/40">
      {t('methods.default')}
    </span>
  );
}

/**
 * A stored method as the owner sees it: kind, holder, the masked account, the BIC, whether it is the default, and the
 * bank's answer to the name check when the method carries it (a payout's copy of its method does not).
 */
export function MethodSummary({
  method,
  withCheckDate = false,
  children,
}: {
  method: Pick<PayoutMethod, 'kind' | 'holder' | 'masked_account'> &
    Partial<Pick<PayoutMethod, 'bic' | 'is_default' | 'payee_check'>>;
  withCheckDate?: boolean;
  children?: ReactNode;
}) {
  const { t } = useTranslation('payouts');
  return (
    <div className="flex min-w-0 flex-1 items-start gap-3">
      <MethodIcon kind={method.kind} />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <p className="truncate font-semibold text-slate-900">{method.holder}</p>
          {method.is_default ? <DefaultBadge /> : null}
        </div>
        <p className="mt-0.5 font-mono text-sm tracking-wide text-slate-700" data-testid="masked-account">
          {shortMask(method.masked_account)}
        </p>
        <p className="text-xs text-slate-500">
          {t(`methods.kinds.${method.kind}`)}
          {method.bic ? ` · ${method.bic}` : ''}
        </p>
        {method.payee_check !== undefined ? <PayeeCheckLine check={method.payee_check} withDate={withCheckDate} /> : null}
        {children}
      </div>
    </div>
  );
}
