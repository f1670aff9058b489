import { useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowLeft, CheckCircle2, Clock, PackageCheck } from 'lucide-react';
import { CARD_DELIVERY_DAYS, CARD_ORDER_MAX_ITEMS, type CardOrder } from '@tipcard/shared/card-orders/schemas';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { PageHeader, Panel } from '../../components/ui/page-header.tsx';
import { SkeletonRows } from '../../components/ui/skeleton.tsx';
import { errorCodeText } from '../../lib/api-errors.ts';
import { countryName } from '../../lib/countries.ts';
import { formatEuro } from '../../lib/format-euro.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { useMyCard } from '../../app/session/use-my-card.ts';
import { usePublicCard } from '../../app/session/use-public-card.ts';
import { newIdempotencyKey, useCardOrders, usePlaceCardOrder } from './api/use-card-orders.ts';
import { OrderForm, type OrderableCard, type OrderFormInput, type OrderFormOutput } from './components/order-form.tsx';
import { OrderHistory } from './components/order-history.tsx';
import { PrintPreview } from './components/print-preview.tsx';

type Step = { name: 'form' } | { name: 'preview'; order: OrderFormOutput; key: string } | { name: 'result'; order: CardOrder };

function Summary({
  order,
  cardName,
  free,
  unitPriceCents,
}: {
  order: OrderFormOutput;
  /** Shown when the user had a choice of card. */
  cardName: string | null;
  free: boolean;
  unitPriceCents: number;
}) {
  const { t } = useTranslation('card-orders');
  const rows: [string, string][] = [
    ...(cardName ? [[t('preview.card'), cardName] as [string, string]] : []),
    [t('preview.product'), t(`products.${order.product}.quantity`, { count: order.quantity })],
    [t('preview.recipient'), `${order.first_name} ${order.last_name}`],
    [
      t('preview.address'),
      [order.address, order.apartment, order.zip, order.city, countryName(order.country, currentLocale())]
        .filter(Boolean)
        .join(', '),
    ],
    [
      t('preview.total'),
      free
        ? t('preview.free')
        : t('preview.paid', {
            count: order.quantity,
            price: formatEuro(unitPriceCents),
            total: formatEuro(unitPriceCents * order.quantity),
          }),
    ],
  ];
  return (
    <dl className="divide-y divide-slate-100 text-sm">
      {rows.map(([label, value]) => (
        <div key={label} className="grid grid-cols-[8rem_1fr] gap-3 py-2.5">
          <dt className="text-slate-500">{label}</dt>
          <dd className="font-medium break-words text-primary-950">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The delivery address of the user's latest order, to fill a new order's form with. */
function addressOf(order: CardOrder | undefined): Partial<OrderFormInput> {
  if (!order) return {};
  const { country, city, address, zip, first_name, last_name } = order;
  return { country, city, address, zip, first_name, last_name, apartment: order.apartment ?? '' };
}

/** /card-orders: the flow form → preview → result → end (spec 4), and the order history. */
export default function CardOrdersPage() {
  const { t } = useTranslation('card-orders');
  const to = useLocalePath();
  const { clientId, card, cards: ownCards, isPending } = useMyCard();
  // The Workplace page's "Order printed cards" opens the shop with the team or venue card chosen.
  const [params] = useSearchParams();
  const asked = params.get('card');
  const held = ownCards.find((item) => item.id === asked);
  // A venue card its other admins may order without holding it (decision 0061): named as guests see it.
  const shared = usePublicCard(asked && !isPending && !held ? asked : null);
  const cards: OrderableCard[] = shared.data
    ? [
        ...ownCards,
        { id: shared.data.id, is_private: false, public_name: shared.data.public_name, venue: Boolean(shared.data.venue) },
      ]
    : ownCards;
  const askedCard = cards.find((item) => item.id === asked);
  const cardNameOf = (id: string | undefined) =>
    cards.length > 1 ? (cards.find((item) => item.id === id)?.public_name ?? null) : null;
  const orders = useCardOrders(clientId);
  const place = usePlaceCardOrder(clientId);
  const [step, setStep] = useState<Step>({ name: 'form' });
  const [draft, setDraft] = useState<Partial<OrderFormInput>>({});
  const top = useRef<HTMLDivElement>(null);
  const hasOrders = (orders.data?.orders.length ?? 0) > 0;
  const title = hasOrders ? t('title_mine') : t('title');
  useDocumentTitle(title);

  const go = (next: Step) => {
    setStep(next);
    top.current?.scrollIntoView({ block: 'start' });
    top.current?.focus();
  };

  function confirm(order: OrderFormOutput, key: string) {
    place.mutate(
      { body: order, key },
      {
        onSuccess: (placed) => {
          // A paid order goes on to the provider's checkout, which brings the user back to the return pages.
          if (placed.status === 'awaiting_payment' && placed.checkout_url) window.location.assign(placed.checkout_url);
          else go({ name: 'result', order: placed });
        },
      },
    );
  }

  const terms = orders.data;
  const limitReached = terms !== undefined && terms.items_left === 0;

  return (
    <div className="mx-auto max-w-4xl space-y-5" ref={top} tabIndex={-1}>
      <PageHeader title={title} description={t('description', { min: CARD_DELIVERY_DAYS.min, max: CARD_DELIVERY_DAYS.max })} />

      {!isPending && !card ? (
        <Panel>
          <p className="text-sm text-slate-700">{t('no_card')}</p>
          <ButtonLink to={to('/account/create')} className="mt-4">
            {t('create_card')}
          </ButtonLink>
        </Panel>
      ) : limitReached && step.name === 'form' ? (
        <Panel>
          <p role="alert" className="text-sm font-medium text-red-700" data-testid="card-order-limit">
            {errorCodeText('card_order_limit')}
          </p>
        </Panel>
      ) : step.name === 'form' && (orders.isPending || shared.isLoading) ? (
        // The form starts from the last order's address and the asked card, so it waits for them.
        <Panel>
          <SkeletonRows label={t('form.loading')} rows={4} />
        </Panel>
      ) : step.name === 'form' ? (
        <Panel>
          {terms ? (
            <p className="mb-5 rounded-xl bg-primary-50 px-4 py-3 text-sm text-primary-900" data-testid="card-order-terms">
              {terms.next_order_free ? t('terms.free') : t('terms.paid', { price: formatEuro(terms.unit_price_cents) })}{' '}
              {t('terms.left', { count: terms.items_left })}
            </p>
          ) : null}
          <OrderForm
            clientId={clientId}
            defaults={
              Object.keys(draft).length > 0 ? draft : { card_id: (askedCard ?? card)?.id, ...addressOf(orders.data?.orders[0]) }
            }
            itemsLeft={terms?.items_left ?? CARD_ORDER_MAX_ITEMS}
            cards={cards}
            onPreview={(order, input) => {
              setDraft(input);
              go({ name: 'preview', order, key: newIdempotencyKey() });
            }}
          />
        </Panel>
      ) : step.name === 'preview' ? (
        <Panel>
          <h2 className="text-base font-semibold text-primary-950">{t('preview.title')}</h2>
          <p className="mt-1 text-sm text-slate-600">{t('preview.hint')}</p>
          <div className="mt-4 grid gap-6 md:grid-cols-[1.2fr_1fr]">
            <div className="grid place-items-center rounded-2xl bg-slate-50 p-4">
              <PrintPreview
                clientId={clientId}
                source={{ product: step.order.product, cardId: step.order.card_id }}
                product={step.order.product}
                className={step.order.product === 'sticker' ? 'max-w-60' : ''}
              />
            </div>
            <div>
              <Summary
                order={step.order}
                cardName={cardNameOf(step.order.card_id)}
                free={terms?.next_order_free ?? false}
                unitPriceCents={terms?.unit_price_cents ?? 0}
              />
              <p className="mt-3 flex items-center gap-2 text-sm text-slate-600">
                <Clock className="size-4 shrink-0" aria-hidden="true" />
                {t('delivery', { min: CARD_DELIVERY_DAYS.min, max: CARD_DELIVERY_DAYS.max })}
              </p>
            </div>
          </div>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button
              variant="secondary"
              size="lg"
              onClick={() => go({ name: 'form' })}
              icon={<ArrowLeft className="size-4" aria-hidden="true" />}
            >
              {t('preview.back')}
            </Button>
            <Button size="lg" loading={place.isPending} onClick={() => confirm(step.order, step.key)}>
              {terms?.next_order_free
                ? t('preview.confirm_free')
                : t('preview.confirm_paid', { total: formatEuro((terms?.unit_price_cents ?? 0) * step.order.quantity) })}
            </Button>
          </div>
        </Panel>
      ) : (
        <Panel>
          <div className="flex flex-col items-center py-6 text-center" role="status" data-testid="card-order-result">
            <span className="grid size-14 place-items-center rounded-2xl bg-emerald-50 text-emerald-700" aria-hidden="true">
              <CheckCircle2 className="size-7" />
            </span>
            <h2 className="mt-4 text-lg font-semibold text-primary-950">{t('result.title')}</h2>
            <p className="mt-1 max-w-md text-sm text-slate-600">
              {t('result.text', {
                what: t(`products.${step.order.product}.quantity`, { count: step.order.quantity }),
                min: CARD_DELIVERY_DAYS.min,
                max: CARD_DELIVERY_DAYS.max,
              })}
            </p>
            <Button
              className="mt-6"
              icon={<PackageCheck className="size-4" aria-hidden="true" />}
              onClick={() => {
                // The address stays for the next order; what to print starts over.
                setDraft((current) => ({ ...current, product: 'card', quantity: 1 }));
                go({ name: 'form' });
              }}
            >
              {t('result.done')}
            </Button>
          </div>
        </Panel>
      )}

      <OrderHistory
        orders={{ isPending: orders.isPending, isError: orders.isError, data: orders.data?.orders, refetch: orders.refetch }}
      />
    </div>
  );
}
