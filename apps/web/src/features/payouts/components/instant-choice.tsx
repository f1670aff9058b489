import { useTranslation } from 'react-i18next';
import { Zap } from 'lucide-react';
import { CheckboxField } from '../../../components/ui/field.tsx';

/** SEPA Instant, offered when the account's bank takes it: seconds instead of the next business day, the same fee. */
export function InstantChoice({ checked, onChange }: { checked: boolean; onChange: (instant: boolean) => void }) {
  const { t } = useTranslation('payouts');
  return (
    <div className="flex items-start gap-2 rounded-xl border border-slate-200 p-3">
      <Zap className="mt-0.5 size-4 shrink-0 text-accent-600" aria-hidden="true" />
      <CheckboxField
        label={
          <>
            <span className="font-medium text-slate-900">{t('instant.label')}</span>
            <span className="block text-xs text-slate-600">{t('instant.hint')}</span>
          </>
        }
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        data-testid="withdraw-instant"
      />
    </div>
  );
}
