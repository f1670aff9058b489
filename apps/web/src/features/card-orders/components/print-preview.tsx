import { useTranslation } from 'react-i18next';
import type { CardProductId } from '@tipcard/shared/card-orders/schemas';
import { cn } from '../../../components/ui/cn.ts';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { usePrintPreview, type PrintSource } from '../api/use-card-orders.ts';

/** The print file's first page as the printer will print it (bleed included), or a placeholder while it renders. */
export function PrintPreview({
  clientId,
  source,
  product,
  className,
}: {
  clientId: string | undefined;
  source: PrintSource;
  product: CardProductId;
  className?: string;
}) {
  const { t } = useTranslation('card-orders');
  const preview = usePrintPreview(clientId, source);
  const shape = product === 'card' ? 'aspect-[91.6/60]' : 'aspect-square';
  if (preview.data) {
    return (
      <img
        src={preview.data}
        alt={t(`preview.alt_${product}`)}
        className={cn('w-full rounded-lg shadow-md ring-1 ring-slate-200', shape, className)}
        data-testid={`print-preview-${product}`}
      />
    );
  }
  if (preview.isError) {
    return (
      <div
        role="alert"
        className={cn(
          'grid w-full place-items-center rounded-lg bg-slate-100 text-center text-sm text-slate-500',
          shape,
          className,
        )}
      >
        {t('preview.error')}
      </div>
    );
  }
  return (
    <div role="status" aria-label={t('preview.loading')} className={cn('w-full', className)}>
      <Skeleton className={cn('w-full', shape)} />
    </div>
  );
}
