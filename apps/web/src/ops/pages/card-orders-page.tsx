import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CARD_ORDER_STATUSES, cardOrderSchema, type CardOrderStatus } from '@tipcard/shared/card-orders/schemas';
import { opsCardOrderMoveBody, opsCardOrderRow, type OpsCardOrderRow } from '@tipcard/shared/ops/schemas';
import { PackageOpen } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { Button } from '../../components/ui/button-base.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { ListState } from '../../components/ui/list-state.tsx';
import { saveBlob } from '../../lib/download-file.ts';
import { showServerErrors } from '../forms.ts';
import { formatCents, formatTime, opsBlob, opsGet, opsPost } from '../ops-api.ts';
import { Badge, BESIDE_FIELDS, ErrorNote, loadErrorText, Page, Table, useStatusFilter } from '../ui.tsx';

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
type OrderMove = z.input<typeof opsCardOrderMoveBody>;

const trackingForm = z.object({ tracking_reference: opsCardOrderMoveBody.options[1].shape.tracking_reference });
type Tracking = z.output<typeof trackingForm>;

/** Shipping needs the parcel's tracking reference, which the user then sees on the order. */
function ShipForm({ order, onShipped }: { order: OpsCardOrderRow; onShipped: () => void }) {
  const form = useForm<z.input<typeof trackingForm>, unknown, Tracking>({
    resolver: zodResolver(trackingForm),
    defaultValues: { tracking_reference: '' },
  });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = form;
  const ship = useMutation({
    mutationFn: ({ tracking_reference }: Tracking) =>
      opsPost(cardOrderSchema, `/card-orders/${order.id}/status`, { status: 'shipped', tracking_reference }),
    onSuccess: onShipped,
    onError: (error) => showServerErrors(error, form),
  });
  return (
    <form onSubmit={handleSubmit((body) => ship.mutate(body))} className="space-y-2" noValidate>
      <div className="flex items-start gap-2">
        <TextField
          label={`Tracking reference for ${order.id.slice(0, 8)}`}
          maxLength={100}
          error={errors.tracking_reference?.message}
          {...register('tracking_reference')}
        />
        <Button type="submit" size="sm" className={BESIDE_FIELDS.sm} loading={ship.isPending}>
          Mark shipped
        </Button>
      </div>
      <ErrorNote error={errors.root?.server?.message} />
    </form>
  );
}

/** The next steps of one order: the card-orders module decides what is allowed; these offer only its moves. */
function OrderActions({ order }: { order: OpsCardOrderRow }) {
  const queryClient = useQueryClient();
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const done = () => void queryClient.invalidateQueries({ queryKey: ['ops', 'card-orders'] });
  const move = useMutation({
    mutationFn: (body: OrderMove) => opsPost(cardOrderSchema, `/card-orders/${order.id}/status`, body),
    onSuccess: done,
  });
  const cancel = useMutation({
    mutationFn: () => opsPost(cardOrderSchema, `/card-orders/${order.id}/cancel`),
    onSuccess: done,
    onSettled: () => setConfirmingCancel(false),
  });
  const short = order.id.slice(0, 8);
  const download = useMutation({
    mutationFn: async () => saveBlob(await opsBlob(`/card-orders/${order.id}/print-file`), `tipcard-order-${short}.pdf`),
  });
  const cancelable = order.status === 'awaiting_payment' || order.status === 'placed' || order.status === 'in_production';
  const paid = !order.free && order.status !== 'awaiting_payment';
  return (
    <div className="flex min-w-64 flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        {order.status !== 'canceled' && order.status !== 'awaiting_payment' && (
          <Button
            size="sm"
            variant="secondary"
            onClick={() => download.mutate()}
            loading={download.isPending}
            aria-label={`Print PDF of order ${short}`}
          >
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
          <Button size="sm" variant="danger" onClick={() => setConfirmingCancel(true)}>
            Cancel
          </Button>
        )}
      </div>
      {order.status === 'in_production' && <ShipForm order={order} onShipped={done} />}
      <ErrorNote error={move.error ?? cancel.error ?? download.error} />
      <Dialog
        open={confirmingCancel}
        onClose={() => setConfirmingCancel(false)}
        title={`Cancel order ${short}?`}
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirmingCancel(false)}>
              Keep the order
            </Button>
            <Button variant="danger" onClick={() => cancel.mutate()} loading={cancel.isPending}>
              Cancel the order
            </Button>
          </>
        }
      >
        <p className="text-sm text-slate-700">
          {paid
            ? `The order is canceled and ${formatCents(order.total_cents)} goes back to the user.`
            : 'The order is canceled; nothing was paid, so nothing is refunded.'}
        </p>
      </Dialog>
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
      <ListState
        query={orders}
        loadingLabel="Loading card orders…"
        errorText={loadErrorText(orders.error)}
        empty={{ icon: <PackageOpen className="size-7" />, title: 'No orders with this status.' }}
      >
        {(rows) => (
          <Table
            caption="Card orders, the oldest first"
            columns={['Ordered', 'Order', 'Ship to', 'Status', 'Actions']}
            rows={rows.map((order) => ({
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
      </ListState>
    </Page>
  );
}
