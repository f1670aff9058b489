import { cn } from '../../../components/ui/cn.ts';
import { useId } from 'react';
import { presetLabel } from '../../../lib/tip-amount.ts';
import { useGuestT } from '../../../lib/guest-i18n.ts';

interface AmountPickerProps {
  presets: readonly number[];
  preset: number | null;
  custom: string;
  onPreset(cents: number): void;
  onCustom(text: string): void;
  hint: string;
  error?: string;
  /** The range in whole euros, shown as the free amount's placeholder. */
  limits: { min: string; max: string };
}

/**
 * The presets as one radio group of big buttons, and a free amount that takes over as soon as something is typed,
 * on one line beside its label so the form stays short on a phone.
 */
export function AmountPicker({ presets, preset, custom, onPreset, onCustom, hint, error, limits }: AmountPickerProps) {
  const t = useGuestT();
  const usingCustom = custom.trim() !== '';
  const customId = useId();
  const placeholder = `${limits.min}–${limits.max}`;
  return (
    <fieldset>
      {/* Read out, not shown: the € buttons say it, and the line is worth more to Pay on a small screen. */}
      <legend className="sr-only">{t('form.amount_legend')}</legend>
      <div className="grid grid-cols-4 gap-2">
        {presets.map((cents) => (
          <div key={cents} className="relative">
            <input
              type="radio"
              name="amount"
              id={`amount-${cents}`}
              value={cents}
              checked={!usingCustom && preset === cents}
              onChange={() => onPreset(cents)}
              className="peer absolute inset-0 z-10 size-full cursor-pointer appearance-none opacity-0"
            />
            <label
              htmlFor={`amount-${cents}`}
              className={cn(
                'flex h-12 cursor-pointer select-none items-center justify-center rounded-2xl border-2 text-lg font-bold tabular-nums transition',
                'border-slate-200 bg-white text-primary-950 hover:border-primary-300 active:scale-[0.97]',
                'peer-checked:border-primary-800 peer-checked:bg-primary-800 peer-checked:text-white peer-checked:shadow-md peer-checked:shadow-primary-900/20',
                'peer-focus-visible:ring-2 peer-focus-visible:ring-accent-400 peer-focus-visible:ring-offset-2',
              )}
            >
              {presetLabel(cents)}
            </label>
          </div>
        ))}
      </div>
      <div className="mt-2 flex items-center justify-between gap-3">
        <label htmlFor={customId} className="text-sm font-medium text-slate-800">
          {t('form.custom_amount')}
        </label>
        <div className="relative w-36 shrink-0">
          <span
            aria-hidden="true"
            className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-base font-semibold text-slate-500"
          >
            €
          </span>
          <input
            id={customId}
            name="custom_amount"
            inputMode="decimal"
            autoComplete="off"
            enterKeyHint="done"
            placeholder={placeholder}
            value={custom}
            onChange={(event) => onCustom(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${customId}-note`}
            className={cn(
              'block h-11 w-full rounded-xl border bg-white pl-8 pr-3 text-base text-slate-900 shadow-xs placeholder:text-slate-400 focus:outline-none focus:ring-2',
              error ? 'border-red-400 focus:ring-red-200' : 'border-slate-300 focus:border-primary-600 focus:ring-primary-100',
            )}
          />
        </div>
      </div>
      {/* The range is the placeholder; its sentence is read out with the field, and shown when the amount is wrong. */}
      <p id={`${customId}-note`} className={error ? 'mt-1 text-sm text-red-700' : 'sr-only'} role={error ? 'alert' : undefined}>
        {error ?? hint}
      </p>
    </fieldset>
  );
}
