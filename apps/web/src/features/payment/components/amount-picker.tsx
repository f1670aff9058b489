import { cn } from '../../../components/ui/cn.ts';
import { TextField } from '../../../components/ui/field.tsx';
import { presetLabel } from '../tip-amount.ts';
import { usePaymentT } from '../payment-i18n.ts';

interface AmountPickerProps {
  presets: readonly number[];
  preset: number | null;
  custom: string;
  onPreset(cents: number): void;
  onCustom(text: string): void;
  hint: string;
  error?: string;
}

/** The presets as one radio group of big buttons, and a free amount that takes over as soon as something is typed. */
export function AmountPicker({ presets, preset, custom, onPreset, onCustom, hint, error }: AmountPickerProps) {
  const t = usePaymentT();
  const usingCustom = custom.trim() !== '';
  return (
    <fieldset>
      <legend className="text-sm font-semibold text-slate-800">{t('form.amount_legend')}</legend>
      <div className="mt-3 grid grid-cols-4 gap-2">
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
                'flex h-16 cursor-pointer select-none items-center justify-center rounded-2xl border-2 text-lg font-bold tabular-nums transition',
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
      <TextField
        className="mt-4"
        label={t('form.custom_amount')}
        hint={hint}
        error={error}
        prefix={<span className="text-base font-semibold text-slate-500">€</span>}
        inputMode="decimal"
        autoComplete="off"
        enterKeyHint="done"
        placeholder="0.00"
        value={custom}
        onChange={(event) => onCustom(event.target.value)}
      />
    </fieldset>
  );
}
