import type { ReactNode } from 'react';
import { Check, CircleSlash, Clock, Link2Off, X } from 'lucide-react';
import { cn } from '../ui/cn.ts';
import { Spinner } from '../ui/spinner.tsx';

export type OutcomeTone = 'success' | 'failure' | 'timeout' | 'canceled' | 'unknown' | 'checking';

const TONES: Record<OutcomeTone, { ring: string; icon: ReactNode }> = {
  success: {
    ring: 'bg-emerald-500 text-white shadow-emerald-500/30',
    icon: <Check className="size-9" strokeWidth={3} aria-hidden="true" />,
  },
  failure: { ring: 'bg-red-500 text-white shadow-red-500/30', icon: <X className="size-9" strokeWidth={3} aria-hidden="true" /> },
  timeout: {
    ring: 'bg-amber-400 text-amber-950 shadow-amber-400/30',
    icon: <Clock className="size-9" strokeWidth={2.5} aria-hidden="true" />,
  },
  canceled: {
    ring: 'bg-slate-200 text-slate-700 shadow-slate-400/20',
    icon: <CircleSlash className="size-9" strokeWidth={2.5} aria-hidden="true" />,
  },
  unknown: {
    ring: 'bg-slate-200 text-slate-700 shadow-slate-400/20',
    icon: <Link2Off className="size-9" strokeWidth={2.5} aria-hidden="true" />,
  },
  checking: { ring: 'bg-primary-50 text-primary-700 shadow-primary-900/10', icon: <Spinner className="[&_svg]:size-9" /> },
};

/**
 * One outcome of the guest's payment. The title sits in a live region so a screen reader hears the result when the
 * return page turns from "confirming" to success or failure without a page load.
 */
export function OutcomeView({
  tone,
  title,
  text,
  children,
  testId,
}: {
  tone: OutcomeTone;
  title: string;
  text?: ReactNode;
  children?: ReactNode;
  testId?: string;
}) {
  const { ring, icon } = TONES[tone];
  return (
    <section
      className="rounded-3xl bg-white px-6 py-10 text-center shadow-sm ring-1 ring-slate-200/70"
      data-testid={testId}
      data-outcome={tone}
    >
      <div
        className={cn('mx-auto grid size-20 place-items-center rounded-full shadow-lg animate-[page-in_240ms_ease-out]', ring)}
      >
        {icon}
      </div>
      <div aria-live="polite" role="status">
        <h1 className="mt-6 text-2xl font-bold tracking-tight text-primary-950">{title}</h1>
        {text ? <div className="mx-auto mt-2 max-w-xs text-[15px] leading-relaxed text-slate-600">{text}</div> : null}
      </div>
      {children ? <div className="mt-8 flex flex-col gap-3">{children}</div> : null}
    </section>
  );
}
