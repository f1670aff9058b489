import { useTranslation } from 'react-i18next';
import { TextField } from '../../../components/ui/field.tsx';
import type { Period } from '../periods.ts';

type Kind = Period['kind'];

/** The period buttons of the statistics and the records, and the two date fields when dates are chosen. */
export function PeriodPicker({
  period,
  onChange,
  kinds,
  label,
}: {
  period: Period;
  onChange: (period: Period) => void;
  kinds: readonly Kind[];
  /** What the buttons choose the period of, for screen readers. */
  label: string;
}) {
  const { t } = useTranslation('teams');
  return (
    <>
      <div className="mt-3 flex flex-wrap gap-1" role="group" aria-label={label}>
        {kinds.map((kind) => (
          <button
            key={kind}
            type="button"
            aria-pressed={period.kind === kind}
            onClick={() => onChange(kind === 'range' ? { kind, from: '', to: '' } : { kind })}
            className={`rounded-lg px-3 py-1.5 text-sm font-medium ${period.kind === kind ? 'bg-primary-800 text-white' : 'text-primary-800 hover:bg-primary-50'}`}
          >
            {t(`stats.${kind}`)}
          </button>
        ))}
      </div>
      {period.kind === 'range' ? (
        <div className="mt-3 grid gap-3 sm:grid-cols-2">
          <TextField
            label={t('stats.from')}
            type="date"
            value={period.from}
            onChange={(event) => onChange({ ...period, from: event.target.value })}
          />
          <TextField
            label={t('stats.to')}
            type="date"
            value={period.to}
            onChange={(event) => onChange({ ...period, to: event.target.value })}
          />
        </div>
      ) : null}
    </>
  );
}
