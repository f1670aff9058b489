import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { z } from 'zod';
import { CARD_ORDER_MAX_ITEMS, CARD_PRODUCTS, cardOrderBody } from '@tipcard/shared/card-orders/schemas';
import type { Card } from '@tipcard/shared/cards/schemas';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/field.tsx';
import { errorCodeText } from '../../../lib/api-errors.ts';
import { useServedCountryOptions } from '../../../lib/countries.ts';
import { translateValidation } from '../../../lib/i18n.ts';
import { useLocalePath } from '../../../lib/use-locale-path.ts';
import { PrintPreview } from './print-preview.tsx';

export type OrderFormInput = z.input<typeof cardOrderBody>;
/** A card the user may print: their own, a team card they run, or their venue's card (`venue`, decision 0061). */
export type OrderableCard = Pick<Card, 'id' | 'is_private' | 'public_name'> & { venue?: boolean };
export type OrderFormOutput = z.output<typeof cardOrderBody>;

/** The order form of spec 3: what to print (the two products, each shown printed with the user's own code), how many, where to. */
export function OrderForm({
  clientId,
  defaults,
  itemsLeft,
  cards,
  onPreview,
}: {
  clientId: string | undefined;
  defaults: Partial<OrderFormInput>;
  /** The cards the user may print; the choice shows when there are several. */
  cards: OrderableCard[];
  /** How many more the user may order in all: the quantities offered stop there. */
  itemsLeft: number;
  onPreview: (order: OrderFormOutput, input: OrderFormInput) => void;
}) {
  const { t } = useTranslation('card-orders');
  const to = useLocalePath();
  const form = useForm<OrderFormInput, unknown, OrderFormOutput>({
    resolver: zodResolver(cardOrderBody),
    defaultValues: { product: 'card', quantity: 1, country: 'LV', apartment: '', additional_info: '', ...defaults },
  });
  const { register, handleSubmit, control, formState } = form;
  const error = (field: keyof OrderFormInput) => translateValidation(formState.errors[field]?.message);
  const product = useWatch({ control, name: 'product' });
  const cardId = useWatch({ control, name: 'card_id' });
  const countries = useServedCountryOptions();

  return (
    <form
      noValidate
      onSubmit={handleSubmit((order) => onPreview(order, form.getValues()))}
      className="space-y-6"
      aria-labelledby="card-order-form-title"
    >
      <h2 id="card-order-form-title" className="text-base font-semibold text-primary-950">
        {t('form.title')}
      </h2>
      {cards.length > 1 ? (
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">{t('form.which_card')}</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2" data-testid="card-order-cards">
            {cards.map((card) => (
              <label
                key={card.id}
                className={cn(
                  'flex cursor-pointer items-start gap-2 rounded-2xl border bg-white p-3 transition-colors focus-within:ring-2 focus-within:ring-primary-200',
                  cardId === card.id ? 'border-primary-600 ring-1 ring-primary-600' : 'border-slate-200 hover:border-primary-300',
                )}
              >
                <input type="radio" value={card.id} {...register('card_id')} className="mt-1 size-4 accent-primary-800" />
                <span className="min-w-0">
                  <span className="block font-semibold break-words text-primary-950">{card.public_name}</span>
                  <span className="block text-sm text-slate-600">
                    {t(card.is_private ? 'form.own_card' : card.venue ? 'form.venue_card' : 'form.team_card')}
                  </span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">{t('form.product')}</legend>
        <div className="mt-2 grid gap-3 sm:grid-cols-2">
          {CARD_PRODUCTS.map((id) => (
            <label
              key={id}
              className={cn(
                'flex cursor-pointer flex-col gap-3 rounded-2xl border bg-white p-3 transition-colors focus-within:ring-2 focus-within:ring-primary-200',
                product === id ? 'border-primary-600 ring-1 ring-primary-600' : 'border-slate-200 hover:border-primary-300',
              )}
            >
              <div className="grid min-h-32 place-items-center rounded-xl bg-slate-50 p-3">
                <PrintPreview
                  clientId={clientId}
                  source={{ product: id, cardId }}
                  product={id}
                  className={id === 'sticker' ? 'max-w-36' : ''}
                />
              </div>
              <span className="flex items-start gap-2">
                <input type="radio" value={id} {...register('product')} className="mt-1 size-4 accent-primary-800" />
                <span>
                  <span className="block font-semibold text-primary-950">{t(`products.${id}.name`)}</span>
                  <span className="block text-sm text-slate-600">{t(`products.${id}.description`)}</span>
                </span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>

      <div>
        <SelectField
          label={t('form.quantity')}
          options={Array.from({ length: Math.min(CARD_ORDER_MAX_ITEMS, itemsLeft) }, (_, i) => ({
            value: String(i + 1),
            label: String(i + 1),
          }))}
          error={error('quantity')}
          className="max-w-40"
          {...register('quantity', { valueAsNumber: true })}
        />
        {itemsLeft < CARD_ORDER_MAX_ITEMS ? (
          <p className="mt-1.5 text-sm font-medium text-slate-800" data-testid="card-order-items-left">
            {t('form.items_left', { count: itemsLeft })}
          </p>
        ) : null}
        <p className="mt-1.5 text-sm text-slate-600">
          {errorCodeText('card_order_too_many_items')}:{' '}
          <Link to={to('/support')} className="font-semibold text-primary-800 underline underline-offset-2">
            {t('form.support_link')}
          </Link>
        </p>
      </div>

      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold text-primary-950">{t('form.delivery')}</legend>
        <TextField
          label={t('form.first_name')}
          autoComplete="given-name"
          error={error('first_name')}
          {...register('first_name')}
        />
        <TextField label={t('form.last_name')} autoComplete="family-name" error={error('last_name')} {...register('last_name')} />
        <SelectField
          label={t('form.country')}
          options={countries}
          autoComplete="country"
          error={error('country')}
          {...register('country')}
        />
        <TextField label={t('form.city')} autoComplete="address-level2" error={error('city')} {...register('city')} />
        <TextField
          label={t('form.address')}
          autoComplete="address-line1"
          error={error('address')}
          className="sm:col-span-2"
          {...register('address')}
        />
        <TextField
          label={t('form.apartment')}
          optional={t('form.optional')}
          autoComplete="address-line2"
          error={error('apartment')}
          {...register('apartment')}
        />
        <TextField label={t('form.zip')} autoComplete="postal-code" error={error('zip')} {...register('zip')} />
        <TextAreaField
          label={t('form.additional_info')}
          optional={t('form.optional')}
          rows={3}
          error={error('additional_info')}
          className="sm:col-span-2"
          {...register('additional_info')}
        />
      </fieldset>

      <div className="flex justify-end">
        <Button type="submit" size="lg" className="w-full sm:w-auto">
          {t('form.to_preview')}
        </Button>
      </div>
    </form>
  );
}
