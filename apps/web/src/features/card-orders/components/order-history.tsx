import { useTranslation } from 'react-i18next';
import { CreditCard, ExternalLink, PackageOpen, Truck } from 'lucide-react';
import type { CardOrder } from '@tipcard/shared/card-orders/schemas';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { cn } from '../../../components/ui/cn.ts';
import { ListState, type ListQuery } from '../../../components/ui/list-state.tsx';
import { Panel } from '../../../components/ui/page-header.tsx';
import { formatEuro } from '../../../lib/format-euro.ts';
import { currentLocale } from '../../../lib/i18n.ts';

const STATUS_TONES: Record<CardOrder['status'], string> = {
  awaiting_payment: 'bg-amber-50 text-amber-800 ring-amber-200',
  placed: 'bg-primary-50 text-primary-800 ring-primary-200',
  in_production: 'bg-sky-50 text-sky-800 ring-sky-200',
  shipped: 'bg-teal-50 text-teal-800 ring-teal-200',
  delivered: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  canceled: 'bg-slate-100 text-slate-600 ring-slate-200',
};

function OrderRow({ order }: { order: CardOrder }) {
  const { t } = useTranslation('card-orders');
  const date = formatDate(order.created_at, 'date', currentLocale());
  return (
    <div
      className="flex flex-col gap-2 py-4 sm:flex-row sm:items-center sm:justify-between"
      data-testid="card-order-row"
      data-status={order.status}
    >
      <div className="min-w-0">
        <p className="font-medium text-primary-950">{t(`products.${order.product}.quantity`, { count: order.quantity })}</p>
        <p className="text-sm text-slate-600">
          {date} · {order.free ? t('history.free') : formatEuro(order.total_cents)}
        </p>
        {order.tracking_reference ? (
          <p className="mt-1 flex items-center gap-1.5 text-sm text-slate-700">
            <Truck className="size-4 shrink-0" aria-hidden="true" />
            {t('history.tracking')} <span className="font-mono break-all">{order.tracking_reference}</span>
          </p>
        ) : null}
      </div>
      <div className="flex shrink-0 items-center gap-3">
        {order.status === 'awaiting_payment' && order.checkout_url ? (
          <a
            href={order.checkout_url}
            className="inline-flex items-center gap-1 text-sm font-semibold text-primary-800 underline-offset-2 hover:underline"
          >
            <CreditCard className="size-4" aria-hidden="true" />
            {t('history.pay')}
            <ExternalLink className="size-3.5" aria-hidden="true" />
          </a>
        ) : null}
        <span className={cn('rounded-full px-2.5 py-1 text-xs font-semibold ring-1 ring-inset', STATUS_TONES[order.status])}>
          {t(`status.${order.status}`)}
        </span>
      </div>
    </div>
  );
}

/** The user's orders, newest first, with statuses and tracking references. */
export function OrderHistory({ orders }: { orders: ListQuery<CardOrder> }) {
  const { t } = useTranslation('card-orders');
  return (
    <Panel className="py-4! sm:py-5!">
      <h2 id="card-orders-history" className="text-base font-semibold text-primary-950">
        {t('history.title')}
      </h2>
      <ListState
        query={orders}
        loadingLabel={t('history.loading')}
        errorText={t('history.error')}
        rows={2}
        empty={{
          icon: <PackageOpen className="size-7" />,
          title: t('history.empty_title'),
          text: t('history.empty_text'),
          testId: 'card-orders-empty',
        }}
      >
        {(items) => (
          <ul aria-labelledby="card-orders-history" className="divide-y divide-slate-100">
            {items.map((order) => (
              <li key={order.id}>
                <OrderRow order={order} />
              </li>
            ))}
          </ul>
        )}
      </ListState>
    </Panel>
  );
}
