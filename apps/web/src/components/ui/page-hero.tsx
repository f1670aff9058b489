import type { ReactNode } from 'react';

/** The dark band that opens every public information page, continuing the landing header. */
export function PageHero({
  eyebrow,
  title,
  lead,
  children,
}: {
  eyebrow: string;
  title: string;
  lead: string;
  children?: ReactNode;
}) {
  return (
    <section className="relative overflow-hidden bg-primary-950 text-white">
      <div
        className="pointer-events-none absolute inset-0 bg-[radial-gradient(50rem_24rem_at_85%_-20%,rgba(45,212,191,0.16),transparent),radial-gradient(36rem_24rem_at_0%_120%,rgba(58,98,182,0.3),transparent)]"
        aria-hidden="true"
      />
      <div className="relative mx-auto max-w-6xl px-4 pb-14 pt-10 sm:px-6 md:pb-20 md:pt-14">
        <p className="text-sm font-semibold uppercase tracking-wider text-accent-300">{eyebrow}</p>
        <h1 className="mt-3 max-w-3xl text-3xl font-bold leading-tight tracking-tight sm:text-4xl lg:text-5xl">{title}</h1>
        <p className="mt-4 max-w-2xl text-base leading-relaxed text-white/75 sm:text-lg">{lead}</p>
        {children}
      </div>
    </section>
  );
}

/** A titled section of an information page. */
export function Section({
  id,
  title,
  children,
  className,
}: {
  id: string;
  title: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section aria-labelledby={id} className={className ?? 'mx-auto max-w-6xl px-4 py-14 sm:px-6'}>
      <h2 id={id} className="text-2xl font-bold tracking-tight text-primary-950 sm:text-3xl">
        {title}
      </h2>
      {children}
    </section>
  );
}
