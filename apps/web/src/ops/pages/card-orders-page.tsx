import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CARD_ORDER_STATUSES, cardOrderSchema, type CardOrderStatus } from '@tipcard/shared/card-orders/schemas';
import { opsCardOrderRow, type OpsCardOrderRow } from '@tipcard/shared/ops/schemas';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { z } from 'zod';
import { Button } from '../../components/ui/button-base.tsx';
import { saveBlob } from '../../lib/download-file.ts';
import { formatCents, formatTime, opsBlob, opsGet, opsPost } from '../ops-api.ts';
import { Badge, Empty, ErrorNote, Loading, Page, Table, TextField, useStatusFilter } from '../ui.tsx';

const TONES = {
  awaiting_payment: 'slate',
  placed: 'amber',
  in_production: 'blue',
  shipped: 'blue',
  delivered: 'green',
  canceled: 'red',
} as const;
const label = (status: CardOrderStatus) => status.replaceAll('_', ' ');
/** The queue opens on what needs work first. */
const DEFAULT_STATUS: CardOrderStatus = 'placed';

/** The next steps of one order: the card-orders module decides what is allowed; these offer only its moves. */
function OrderActions({ order }: { order: OpsCardOrderRow }) {
  const queryClient = useQueryClient();
  const [tracking, setTracking] = useState('');
  const [downloadError, setDownloadError] = useState<unknown>(null);
  const done = () => void queryClient.invalidateQueries({ queryKey: ['ops', 'card-orders'] });
  const move = useMutation({
    mutationFn: (body: object) => opsPost(cardOrderSchema, `/card-orders/${order.id}/status`, body),
    onSuccess: done,
  });
  const cancel = useMutation({
    mutationFn: () => opsPost(cardOrderSchema, `/card-orders/${order.id}/cancel`),
    onSuccess: done,
  });
  const download = async () => {
    setDownloadError(null);
    try {
      saveBlob(await opsBlob(`/card-orders/${order.id}/print-file`), `tipcard-order-${order.id.slice(0, 8)}.pdf`);
    } catch (error) {
      setDownloadError(error);
    }
  };
  const ship = (event: FormEvent) => {
    event.preventDefault();
    move.mutate({ status: 'shipped', tracking_reference: tracking });
  };
  const short = order.id.slice(0, 8);
  const cancelable = order.status === 'awaiting_payment' || order.status === 'placed' || order.status === 'in_production';
  return (
    <div className="flex min-w-64 flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        {order.status !== 'canceled' && order.status !== 'awaiting_payment' && (
          <Button size="sm" variant="secondary" onClick={() => void download()} aria-label={`Print PDF of order ${short}`}>
            Print PDF
          </Button>
        )}
        {order.status === 'placed' && (
          <Button size="sm" onClick={() => move.mutate({ status: 'in_production' })} loading={move.isPending}>
            Start production
          </Button>
        )}
        {order.status === 'shipped' && (
          <Button size="sm" onClick={() => move.mutate({ status: 'delivered' })} loading={move.isPending}>
            Mark delivered
          </Button>
        )}
        {cancelable && (
          <Button
            size="sm"
            variant="danger"
            onClick={() => {
              const paid = !order.free && order.status !== 'awaiting_payment';
              if (
                window.confirm(
                  paid ? `Cancel order ${short} and refund ${formatCents(order.total_cents)}?` : `Cancel order ${short}?`,
                )
              )
                cancel.mutate();
            }}
            loading={cancel.isPending}
          >
            Cancel
          </Button>
        )}
      </div>
      {order.status === 'in_production' && (
        <form onSubmit={ship} className="flex items-end gap-2">
          <TextField
            label={`Tracking reference for ${short}`}
            name="tracking_reference"
            value={tracking}
            onChange={(event) => setTracking(event.target.value)}
            maxLength={100}
            required
          />
          <Button type="submit" size="sm" loading={move.isPending} disabled={tracking.trim() === ''}>
            Mark shipped
          </Button>
        </form>
      )}
      <ErrorNote error={move.error ?? cancel.error ?? downloadError} />
    </div>
  );
}

/** Card orders by status, the oldest first: print, produce, ship, deliver, or cancel (refunded when paid). */
export default function CardOrdersPage() {
  const { status, filter } = useStatusFilter(CARD_ORDER_STATUSES, DEFAULT_STATUS, label);
  const orders = useQuery({
    queryKey: ['ops', 'card-orders', status ?? 'all'],
    queryFn: () => opsGet(z.array(opsCardOrderRow), '/card-orders', { status }),
  });
  return (
    <Page title="Card orders" actions={filter}>
      {orders.isPending && <Loading />}
      <ErrorNote error={orders.error} />
      {orders.data && orders.data.length === 0 && <Empty>No orders with this status.</Empty>}
      {orders.data && orders.data.length > 0 && (
        <Table
          caption="Card orders, the oldest first"
          columns={['Ordered', 'Order', 'Ship to', 'Status', 'Actions']}
          rows={orders.data.map((order) => ({
            key: order.id,
            cells: [
              formatTime(order.placed_at ?? order.created_at),
              <div key="order" className="space-y-0.5">
                <p className="font-medium">
                  {order.quantity} × {order.product}
                </p>
                <p className="text-xs text-slate-600">
                  {order.free ? 'free' : formatCents(order.total_cents)} · <code>{order.id.slice(0, 8)}</code>
                </p>
                <Link to={`/users/${order.user_id}`} className="text-xs font-medium text-primary-800 underline">
                  {order.phone}
                </Link>
              </div>,
              <address key="address" className="text-xs not-italic leading-5">
                {order.first_name} {order.last_name}
                <br />
                {order.address}
                {order.apartment ? `, ${order.apartment}` : ''}
                <br />
                {order.zip} {order.city}, {order.country}
                {order.additional_info && <span className="block text-slate-600">{order.additional_info}</span>}
              </address>,
              <div key="status" className="space-y-1">
                <Badge tone={TONES[order.status]}>{label(order.status)}</Badge>
                {order.tracking_reference && <p className="text-xs text-slate-600">{order.tracking_reference}</p>}
              </div>,
              <OrderActions key="actions" order={order} />,
            ],
          }))}
        />
      )}
    </Page>
  );
}
