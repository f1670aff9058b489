import { useState } from 'react';
import { Star } from 'lucide-react';
import { cn } from '../../../components/ui/cn.ts';
import { useGuestT } from '../../../lib/guest-i18n.ts';

const VALUES = [1, 2, 3, 4, 5] as const;

/**
 * 1–5 stars as a native radio group (arrow keys move, one tab stop, each star announced "3 out of 5"); the stars up
 * to the chosen or hovered one light up. Optional: the guest can clear it again.
 */
export function StarRating({ value, onChange }: { value: number | null; onChange(value: number | null): void }) {
  const t = useGuestT();
  const [hover, setHover] = useState<number | null>(null);
  const lit = hover ?? value ?? 0;
  return (
    <fieldset>
      <legend className="text-sm font-semibold text-slate-800">
        {t('form.rating_legend')} <span className="text-xs font-normal text-slate-500">{t('form.optional')}</span>
      </legend>
      {/* "Clear rating" may wrap under the stars in a long language rather than push past the card's edge. */}
      <div className="flex flex-wrap items-center gap-x-1" onPointerLeave={() => setHover(null)}>
        {VALUES.map((star) => (
          <div key={star} className="relative">
            <input
              type="radio"
              name="rating"
              id={`rating-${star}`}
              value={star}
              checked={value === star}
              onChange={() => onChange(star)}
              className="peer absolute inset-0 z-10 size-full cursor-pointer appearance-none opacity-0"
            />
            <label
              htmlFor={`rating-${star}`}
              onPointerEnter={(event) => event.pointerType === 'mouse' && setHover(star)}
              className="grid size-10 cursor-pointer place-items-center rounded-xl transition active:scale-90 peer-focus-visible:ring-2 peer-focus-visible:ring-accent-400"
            >
              <Star
                className={cn('size-7 transition-colors', star <= lit ? 'fill-amber-400 text-amber-400' : 'text-slate-300')}
                strokeWidth={1.5}
                aria-hidden="true"
              />
              <span className="sr-only">{t('form.star', { value: star })}</span>
            </label>
          </div>
        ))}
        {value !== null ? (
          <button
            type="button"
            onClick={() => onChange(null)}
            className="ml-auto min-h-10 rounded-lg px-1 text-xs font-medium text-slate-500 underline-offset-2 hover:text-primary-800 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400"
          >
            {t('form.clear_rating')}
          </button>
        ) : null}
      </div>
    </fieldset>
  );
}
