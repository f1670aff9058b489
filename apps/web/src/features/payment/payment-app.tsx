import { useEffect, useState } from 'react';
import { RotateCw } from 'lucide-react';
import type { PublicCard, PublicPayment } from '@tipcard/shared/payments/schemas';
import { Button, buttonClasses } from '../../components/ui/button-base.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { formatEuro } from '../../lib/format-euro.ts';
import { readShellData } from '../../lib/shell-data.ts';
import { fetchHumanCheckSiteKey, fetchPublicCard, fetchPublicPayment, PublicApiError } from './api/public-api.ts';
import { OutcomeView } from './components/outcome-view.tsx';
import { PaymentShell } from './components/payment-shell.tsx';
import { RecipientHeader } from './components/recipient-header.tsx';
import { TipForm } from './components/tip-form.tsx';
import { cardIdOf, parsePaymentRoute, paymentRoutePath, type PaymentRoute } from './payment-route.ts';
import { usePaymentResult } from './use-payment-result.ts';
import { usePaymentT } from './payment-i18n.ts';

/** What the server inlined into public.html (apps/api payments.routes.ts); `turnstile_site_key` when it sends it. */
interface ShellData {
  card?: PublicCard | null;
  turnstile_site_key?: string | null;
}

type CardState = { status: 'loading' } | { status: 'ready'; card: PublicCard } | { status: 'missing' } | { status: 'error' };

function currentRoute(): PaymentRoute {
  return parsePaymentRoute(window.location.pathname, window.location.search, window.location.hash);
}

/** The card of the first paint: inlined by the server when it served a card's path; null on the return page. */
function initialCard(route: PaymentRoute, shell: ShellData | undefined): CardState {
  if (!cardIdOf(route)) return { status: 'missing' };
  if (shell && 'card' in shell) return shell.card ? { status: 'ready', card: shell.card } : { status: 'missing' };
  return { status: 'loading' };
}

/**
 * The card for the current route: the inlined one, otherwise fetched (vite dev, or the return page once it knows the
 * payment's card). A 404 is the "no longer active" state, anything else a retryable error.
 */
function useCard(cardId: string | null, initial: CardState) {
  const [state, setState] = useState<{ id: string | null; card: CardState }>({ id: cardId, card: initial });
  const [attempt, setAttempt] = useState(0);
  const current = state.id === cardId ? state.card : ({ status: 'loading' } as const);
  const needsFetch = Boolean(cardId) && (state.id !== cardId || state.card.status === 'loading');

  useEffect(() => {
    if (!needsFetch || !cardId) return;
    const controller = new AbortController();
    fetchPublicCard(cardId, controller.signal)
      .then((card) => setState({ id: cardId, card: { status: 'ready', card } }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ id: cardId, card: error instanceof PublicApiError && error.status === 404 ? { status: 'missing' } : { status: 'error' } });
      });
    return () => controller.abort();
  }, [cardId, needsFetch, attempt]);

  return {
    card: current,
    markMissing: () => setState({ id: cardId, card: { status: 'missing' } }),
    retry: () => {
      setState({ id: cardId, card: { status: 'loading' } });
      setAttempt((value) => value + 1);
    },
  };
}

/** The anti-bot site key: inlined when the server sends it, otherwise asked for after the first paint. */
function useSiteKey(inlined: string | null | undefined, needed: boolean): string | null {
  const [siteKey, setSiteKey] = useState<string | null>(inlined ?? null);
  useEffect(() => {
    if (inlined !== undefined || !needed) return;
    const controller = new AbortController();
    void fetchHumanCheckSiteKey(controller.signal).then((key) => !controller.signal.aborted && setSiteKey(key));
    return () => controller.abort();
  }, [inlined, needed]);
  return siteKey;
}

/** The payment the success page shows the amount of (the return page passes it on; a reload fetches it). */
function usePayment(paymentId: string | null, known: PublicPayment | null): PublicPayment | null {
  const [payment, setPayment] = useState<PublicPayment | null>(known);
  useEffect(() => {
    if (!paymentId || payment?.id === paymentId) return;
    const controller = new AbortController();
    fetchPublicPayment(paymentId, controller.signal).then(setPayment, () => undefined);
    return () => controller.abort();
  }, [paymentId, payment]);
  return payment?.id === paymentId ? payment : null;
}

export function PaymentApp({ shell }: { shell?: ShellData }) {
  const [route, setRoute] = useState<PaymentRoute>(currentRoute);
  const [lastPayment, setLastPayment] = useState<PublicPayment | null>(null);
  const [initial] = useState(() => initialCard(route, shell ?? readShellData<ShellData>()));
  const cardId = cardIdOf(route);
  const { card, markMissing, retry } = useCard(cardId, initial);
  const siteKey = useSiteKey(shell?.turnstile_site_key, route.page === 'form');
  const t = usePaymentT();

  useEffect(() => {
    const onPopState = () => setRoute(currentRoute());
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, []);

  // The tab title follows the page and the language (the server's title is in English).
  const name = card.status === 'ready' ? card.card.public_name : null;
  useEffect(() => {
    document.title = name ? t('meta.title', { name }) : t('meta.generic_title');
  }, [name, t]);

  const go = (next: PaymentRoute, mode: 'push' | 'replace' = 'push') => {
    window.history[mode === 'push' ? 'pushState' : 'replaceState'](null, '', paymentRoutePath(next));
    setRoute(next);
    window.scrollTo({ top: 0 });
  };

  let content;
  // The return page names no card (the payment does): it never shows the unknown-card state.
  if (route.page === 'result') {
    content = (
      <ResultPage
        paymentId={route.paymentId}
        onFinal={(payment, page) => {
          setLastPayment(payment);
          go({ page, cardId: payment.card_id, paymentId: payment.id }, 'replace');
        }}
        onTryAgain={(id) => go({ page: 'form', cardId: id })}
      />
    );
  } else if (route.page === 'unknown' || card.status === 'missing') {
    content = <UnknownCard />;
  } else if (card.status === 'loading') {
    content = (
      <div className="grid min-h-[60dvh] place-items-center text-primary-700">
        <Spinner label={t('result.checking_title')} className="[&_svg]:size-8" />
      </div>
    );
  } else if (card.status === 'error') {
    content = (
      <OutcomeView tone="failure" title={t('errors.generic')} text={t('errors.network')}>
        <Button size="lg" block onClick={retry} icon={<RotateCw className="size-4" aria-hidden="true" />}>
          {t('result.try_again')}
        </Button>
      </OutcomeView>
    );
  } else if (route.page === 'form') {
    content = (
      <>
        <RecipientHeader card={card.card} />
        <TipForm key={card.card.id} card={card.card} siteKey={siteKey} onCardGone={markMissing} />
      </>
    );
  } else if (route.page === 'success') {
    content = <SuccessPage card={card.card} paymentId={route.paymentId} known={lastPayment} onAnother={() => go({ page: 'form', cardId: card.card.id })} />;
  } else {
    content = (
      <OutcomeView tone="canceled" title={t('result.canceled_title')} text={t('result.canceled_text')} testId="payment-canceled">
        <Button size="lg" block onClick={() => go({ page: 'form', cardId: card.card.id })} icon={<RotateCw className="size-4" aria-hidden="true" />}>
          {t('result.try_again')}
        </Button>
      </OutcomeView>
    );
  }

  return <PaymentShell>{content}</PaymentShell>;
}

function UnknownCard() {
  const t = usePaymentT();
  return (
    <OutcomeView tone="unknown" title={t('unknown.title')} text={t('unknown.text')} testId="payment-unknown">
      <a href="/" className={buttonClasses('secondary', 'lg', true)}>
        {t('unknown.home')}
      </a>
    </OutcomeView>
  );
}

function SuccessPage({ card, paymentId, known, onAnother }: { card: PublicCard; paymentId: string | null; known: PublicPayment | null; onAnother(): void }) {
  const t = usePaymentT();
  const payment = usePayment(paymentId, known);
  const amount = payment ? formatEuro(payment.amount_cents) : null;
  return (
    <OutcomeView
      tone="success"
      title={t('result.success_title')}
      testId="payment-success"
      text={
        <>
          {amount ? (
            <p data-testid="success-amount">{t(card.activity_type === 'DONATION' ? 'donation.success_text' : 'result.success_text', { amount, name: card.public_name })}</p>
          ) : null}
          <p className="mt-2">{t('result.success_note')}</p>
        </>
      }
    >
      <Button variant="secondary" size="lg" block onClick={onAnother}>
        {card.activity_type === 'DONATION' ? t('donation.another') : t('result.another_tip')}
      </Button>
    </OutcomeView>
  );
}

function ResultPage({
  paymentId,
  onFinal,
  onTryAgain,
}: {
  paymentId: string | null;
  onFinal(payment: PublicPayment, page: 'success' | 'canceled'): void;
  onTryAgain(cardId: string): void;
}) {
  const t = usePaymentT();
  const { state, checkAgain } = usePaymentResult(paymentId);
  const { phase, payment } = state;

  // Forward to the outcome's own page (spec: the return page "forwards to success or canceled").
  useEffect(() => {
    if (payment && (phase === 'succeeded' || phase === 'canceled')) onFinal(payment, phase === 'succeeded' ? 'success' : 'canceled');
  }, [phase, payment, onFinal]);

  const tryAgain = payment ? (
    <Button size="lg" block onClick={() => onTryAgain(payment.card_id)} icon={<RotateCw className="size-4" aria-hidden="true" />}>
      {t('result.try_again')}
    </Button>
  ) : null;

  if (phase === 'failed') {
    return (
      <OutcomeView tone="failure" title={t('result.failed_title')} text={t('result.failed_text')} testId="payment-failed">
        {tryAgain}
      </OutcomeView>
    );
  }
  if (phase === 'timeout') {
    return (
      <OutcomeView tone="timeout" title={t('result.timeout_title')} text={t('result.timeout_text')} testId="payment-timeout">
        <Button size="lg" block onClick={checkAgain} icon={<RotateCw className="size-4" aria-hidden="true" />}>
          {t('result.check_again')}
        </Button>
        {payment ? (
          <Button variant="secondary" size="lg" block onClick={() => onTryAgain(payment.card_id)}>
            {t('result.try_again')}
          </Button>
        ) : null}
      </OutcomeView>
    );
  }
  return <OutcomeView tone="checking" title={t('result.checking_title')} text={t('result.checking_text')} testId="payment-checking" />;
}
