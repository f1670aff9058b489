import { cn } from './cn.ts';

/** A grey block standing where content will be; hidden from screen readers, which hear the surrounding status. */
export function Skeleton({ className }: { className?: string }) {
  return <span className={cn('block animate-pulse rounded-lg bg-slate-100', className)} aria-hidden="true" />;
}

/** A list's loading state: a few row-shaped blocks and a status that names what loads. */
export function SkeletonRows({ label, rows = 3, className }: { label: string; rows?: number; className?: string }) {
  return (
    <div role="status" aria-label={label} className={cn('space-y-3', className)}>
      {Array.from({ length: rows }, (_, index) => (
        <Skeleton key={index} className="h-12" />
      ))}
    </div>
  );
}
