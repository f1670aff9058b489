import type { ReactNode } from 'react';

/** The panel of the sign-in pages. */
export function AuthCard({
  title,
  subtitle,
  children,
  footer,
  icon,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  icon?: ReactNode;
}) {
  return (
    <div className="w-full max-w-md">
      <div className="rounded-3xl bg-white p-6 shadow-xl shadow-primary-950/5 ring-1 ring-slate-200/70 sm:p-8">
        {icon ? (
          <div className="mb-5 grid size-12 place-items-center rounded-2xl bg-primary-50 text-primary-800">{icon}</div>
        ) : null}
        <h1 className="text-2xl font-bold tracking-tight text-primary-950">{title}</h1>
        {subtitle ? <p className="mt-2 text-sm leading-relaxed text-slate-600">{subtitle}</p> : null}
        <div className="mt-6">{children}</div>
      </div>
      {footer ? <div className="mt-6 text-center text-sm text-slate-600">{footer}</div> : null}
    </div>
  );
}
