import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { CheckCircle2, CircleX, Loader2 } from 'lucide-react';
import { publicPaymentSchema } from '@tipcard/shared/payments/schemas';
import { isUuid } from '@tipcard/shared/uuid';
import { ButtonLink } from '../../components/ui/button.tsx';
import { api } from '../../lib/api-client.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { hasSession } from '../../lib/tokens.ts';

/** The provider's event usually lands within seconds; the page stops asking after this long. */
const POLL_FOR_MS = 60_000;

/**
 * /card-orders/payment/success and /canceled (public, spec 2): where the provider sends the user back. The page asks
 * the payment's state (the server asks the provider itself when its event is late), since a declined card also
 * comes back to "success".
 */
export default function CardOrderPaymentPage({ outcome }: { outcome: 'success' | 'canceled' }) {
  const { t } = useTranslation('card-orders');
  const to = useLocalePath();
  const [search] = useSearchParams();
  const paymentId = search.get('payment') ?? '';
  const valid = isUuid(paymentId);
  const [started] = useState(() => Date.now());
  const payment = useQuery({
    queryKey: ['card-order-payment', paymentId],
    queryFn: ({ signal }) => api.get(`/public/payments/${paymentId}`, publicPaymentSchema, { signal, errorHandling: 'none' }),
    enabled: valid,
    refetchInterval: (query) => (query.state.data?.status === 'pending' && Date.now() - started < POLL_FOR_MS ? 1_500 : false),
  });
  const status = !valid ? 'canceled' : (payment.data?.status ?? (payment.isError ? 'failed' : 'pending'));
  const state =
    status === 'succeeded' ? 'paid' : status === 'pending' ? (outcome === 'canceled' ? 'canceled' : 'waiting') : 'canceled';
  useDocumentTitle(t(`payment.${state}.title`));
  const Icon = state === 'paid' ? CheckCircle2 : state === 'waiting' ? Loader2 : CircleX;

  return (
    <div
      className="mx-auto flex max-w-lg flex-col items-center px-4 py-16 text-center"
      data-testid="card-order-payment"
      data-state={state}
    >
      <span
        className={`grid size-16 place-items-center rounded-2xl ${state === 'paid' ? 'bg-emerald-50 text-emerald-700' : state === 'waiting' ? 'bg-primary-50 text-primary-700' : 'bg-red-50 text-red-700'}`}
        aria-hidden="true"
      >
        <Icon className={`size-8 ${state === 'waiting' ? 'animate-spin' : ''}`} />
      </span>
      <div aria-live="polite">
        <h1 className="mt-5 text-2xl font-bold text-primary-950">{t(`payment.${state}.title`)}</h1>
        <p className="mt-2 text-slate-600">{t(`payment.${state}.text`)}</p>
      </div>
      <ButtonLink to={to(hasSession() ? '/card-orders' : '/login')} size="lg" className="mt-8">
        {hasSession() ? t('payment.back') : t('payment.sign_in')}
      </ButtonLink>
    </div>
  );
}
