import { useTranslation } from 'react-i18next';
import { Zap } from 'lucide-react';
import { CheckboxField } from '../../../components/ui/field.tsx';
import { cn } from '../../../components/ui/cn.ts';

/**
 * SEPA Instant, offered when the account's bank takes it: seconds instead of the next business day, the same fee.
 * Compact (beside a select of three or more accounts) it is one plain row with a short hint, so the slide stays in view.
 */
export function InstantChoice({
  checked,
  onChange,
  compact = false,
}: {
  checked: boolean;
  onChange: (instant: boolean) => void;
  compact?: boolean;
}) {
  const { t } = useTranslation('payouts');
  return (
    <div className={cn('flex items-start gap-2', compact ? 'px-1' : 'rounded-xl border border-slate-200 p-3')}>
      <Zap className="mt-0.5 size-4 shrink-0 text-accent-600" aria-hidden="true" />
      <CheckboxField
        label={
          <>
            <span className="font-medium text-slate-900">{t('instant.label')}</span>
            <span className="block text-xs text-slate-600">{t(compact ? 'instant.hint_short' : 'instant.hint')}</span>
          </>
        }
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        data-testid="withdraw-instant"
      />
    </div>
  );
}
