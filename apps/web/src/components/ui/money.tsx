import { cn } from './cn.ts';
import { formatEuro } from '../../lib/format-euro.ts';

/** An EUR amount in the spec format (thousands with spaces, currency code removed) with a € sign. */
export function Money({ cents, className, testId }: { cents: number; className?: string; testId?: string }) {
  return (
    <span className={cn('whitespace-nowrap', className)} data-testid={testId}>
      {formatEuro(cents)}
    </span>
  );
}
