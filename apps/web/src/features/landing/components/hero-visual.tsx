import { useTranslation } from 'react-i18next';
import { CheckCircle2 } from 'lucide-react';

import { formatEuro } from '../../../lib/format-euro.ts';
/** A stylised phone with a tip card: decoration only. */
export function HeroVisual() {
  const { t } = useTranslation('landing');
  // A fixed pseudo-QR pattern (decorative).
  const cells = Array.from({ length: 121 }, (_, index) => {
    const x = index % 11;
    const y = Math.floor(index / 11);
    const finder = (x < 3 && y < 3) || (x > 7 && y < 3) || (x < 3 && y > 7);
    return finder || (x * 7 + y * 13 + x * y) % 5 < 2;
  });
  return (
    <div className="relative mx-auto w-full max-w-xs" aria-hidden="true">
      <div className="absolute -inset-8 rounded-[3rem] bg-accent-400/20 blur-3xl" />
      <div className="relative rounded-[2.25rem] bg-primary-950 p-3 shadow-2xl shadow-primary-950/40 ring-1 ring-white/10">
        <div className="rounded-[1.75rem] bg-white px-5 pb-6 pt-7">
          <div className="mx-auto mb-5 h-1.5 w-16 rounded-full bg-slate-200" />
          <div className="flex items-center gap-3">
            <div className="grid size-11 place-items-center rounded-xl bg-gradient-to-br from-primary-600 to-primary-900 text-sm font-bold text-white">
              AB
            </div>
            <div>
              <p className="text-sm font-semibold text-primary-950">Anna B.</p>
              <p className="text-xs text-slate-500">{t('visual.role')}</p>
            </div>
          </div>
          <div className="mx-auto mt-5 grid size-40 grid-cols-11 gap-[2px] rounded-xl bg-white p-2 ring-1 ring-slate-200">
            {cells.map((on, index) => (
              <span key={index} className={on ? 'rounded-[1px] bg-primary-900' : ''} />
            ))}
          </div>
          <div className="mt-5 grid grid-cols-4 gap-1.5">
            {[300, 500, 1_000, 2_000].map((amount, index) => (
              <span
                key={amount}
                className={
                  index === 1
                    ? 'rounded-lg bg-primary-800 py-2 text-center text-xs font-semibold text-white'
                    : 'rounded-lg bg-slate-100 py-2 text-center text-xs font-semibold text-slate-700'
                }
              >
                {formatEuro(amount)}
              </span>
            ))}
          </div>
        </div>
      </div>
      <div className="absolute -right-4 top-24 flex items-center gap-2 rounded-2xl bg-white px-3.5 py-2.5 shadow-xl ring-1 ring-slate-200 sm:-right-10">
        <CheckCircle2 className="size-5 text-emerald-600" />
        <div>
          <p className="text-xs font-semibold text-slate-900">{t('visual.received')}</p>
          <p className="text-xs text-slate-500">{formatEuro(500)}</p>
        </div>
      </div>
    </div>
  );
}
