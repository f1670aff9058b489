import { cn } from './cn.ts';

export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={cn('size-8', className)} aria-hidden="true">
      <rect width="32" height="32" rx="9" fill="currentColor" />
      <path d="M8.5 8.5h6v6h-6zM17.5 8.5h6v6h-6zM8.5 17.5h6v6h-6z" fill="#fff" />
      <path d="M17.5 17.5h2.5V20h-2.5zM21 21h2.5v2.5H21zM17.5 21h2.5v2.5h-2.5zM21 17.5h2.5V20H21z" fill="#5eead4" />
    </svg>
  );
}

/** `compact`: the word shows from 400 px up only, where a header's language switch and button leave it room. */
export function Logo({ className, inverted, compact }: { className?: string; inverted?: boolean; compact?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2', className)}>
      <LogoMark className={inverted ? 'text-white/15' : 'text-primary-800'} />
      <span
        className={cn(
          'text-lg font-bold tracking-tight',
          inverted ? 'text-white' : 'text-primary-950',
          compact && 'hidden min-[400px]:inline',
        )}
      >
        Tipcard
      </span>
    </span>
  );
}
