import { useEffect, useId, useState, type ReactNode } from 'react';
import { Mail, RotateCw } from 'lucide-react';
import { DEFAULT_LOCALE } from '@tipcard/shared/constants';
import { formatDate } from '@tipcard/shared/dates/format-date';
import type { GuestFormStart, GuestSuccess, ReceiptOutcome, ThankYou } from '@tipcard/shared/payments/guest-form';
import { paymentReference } from '@tipcard/shared/payments/guest-form';
import type { PublicCard, PublicPayment } from '@tipcard/shared/payments/schemas';
import { Button } from '../../components/ui/button-base.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { readShellData } from '../../lib/shell-data.ts';
import { fetchHumanCheckSiteKey, fetchPublicCard, fetchPublicPayment, PublicApiError } from '../../lib/guest-api.ts';
import { OutcomeView } from '../../components/guest/outcome-view.tsx';
import { GuestShell } from '../../components/guest/guest-shell.tsx';
import { UnknownLink } from '../../components/guest/unknown-link.tsx';
import { RecipientHeader } from './components/recipient-header.tsx';
import { TipForm } from './components/tip-form.tsx';
import { cardIdOf, parseTipRoute, tipRoutePath, type TipRoute } from './tip-route.ts';
import { usePaymentResult } from '../../lib/use-payment-result.ts';
import { guestLocale, guestMoney, useGuestT } from '../../lib/guest-i18n.ts';
import { ReceiptLink } from '../../components/guest/receipt-link.tsx';

/**
 * What the server rendered the page from and inlined into it for hydration (apps/api payment-pages.ts); the page
 * renders the same from it on the server and in the browser. Fields are absent under `vite dev`.
 */
export interface TipShellData {
  card?: PublicCard | null;
  turnstile_site_key?: string | null;
  locale?: string;
  /** What the form starts from: the guest's entries of a payment that did not go through, or a refused plain POST. */
  start?: GuestFormStart | null;
  /** The Idempotency-Key of the plain form's POST. */
  form_key?: string;
  /** The success page's payment as the server checked it; null when this card has no such successful payment. */
  success?: GuestSuccess | null;
  receipt?: ReceiptOutcome | null;
}
type ShellData = TipShellData;

type CardState = { status: 'loading' } | { status: 'ready'; card: PublicCard } | { status: 'missing' } | { status: 'error' };

function currentRoute(): TipRoute {
  return parseTipRoute(window.location.pathname, window.location.search, window.location.hash);
}

/** The card of the first paint: inlined by the server when it served a card's path; null on the return page. */
function initialCard(route: TipRoute, shell: ShellData | undefined): CardState {
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
        setState({
          id: cardId,
          card: error instanceof PublicApiError && error.status === 404 ? { status: 'missing' } : { status: 'error' },
        });
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

/** The payment pages; on the server `route` and `shell` are given, in the browser they come from the URL and the page. */
export function TipApp({ shell: given, route: initialRoute }: { shell?: ShellData; route?: TipRoute }) {
  const [route, setRoute] = useState<TipRoute>(() => initialRoute ?? currentRoute());
  const [shell] = useState(() => given ?? readShellData<ShellData>());
  const [firstRoute] = useState(route);
  const [initial] = useState(() => initialCard(route, shell));
  const cardId = cardIdOf(route);
  const { card, markMissing, retry } = useCard(cardId, initial);
  const formPage = route.page === 'form' || route.page === 'canceled' || route.page === 'failed' || route.page === 'timeout';
  const siteKey = useSiteKey(shell?.turnstile_site_key, formPage);
  const t = useGuestT();

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

  const go = (next: TipRoute, mode: 'push' | 'replace' = 'push') => {
    window.history[mode === 'push' ? 'pushState' : 'replaceState'](null, '', tipRoutePath(next));
    setRoute(next);
    window.scrollTo({ top: 0 });
  };

  let content;
  // The return page names no card (the payment does): it never shows the unknown-card state.
  if (route.page === 'result') {
    content = (
      <ResultPage
        paymentId={route.paymentId}
        // A full load: the server checks the outcome's page against the payment and fills the form again.
        onFinal={(payment, page) =>
          window.location.replace(tipRoutePath({ page, cardId: payment.card_id, paymentId: payment.id }))
        }
      />
    );
  } else if (route.page === 'unknown' || card.status === 'missing') {
    content = <UnknownLink />;
  } else if (card.status === 'loading') {
    content = (
      <div className="grid min-h-[60dvh] place-items-center text-primary-700">
        <Spinner label={t('result.checking_title')} className="[&_svg]:size-8" />
      </div>
    );
  } else if (card.status === 'error') {
    content = (
      <OutcomeView tone="failure" title={t('errors.generic')} text={t('errors:no_answer')}>
        <Button size="lg" block onClick={retry} icon={<RotateCw className="size-4" aria-hidden="true" />}>
          {t('result.try_again')}
        </Button>
      </OutcomeView>
    );
  } else if (formPage) {
    // The first form of the page starts from what the server rendered; after "leave another tip" it starts fresh.
    const fromServer = route === firstRoute;
    content = (
      <>
        <RecipientHeader card={card.card} />
        <TipForm
          key={card.card.id}
          card={card.card}
          siteKey={siteKey}
          onCardGone={markMissing}
          start={fromServer ? (shell?.start ?? null) : null}
          formKey={fromServer ? shell?.form_key : undefined}
        />
      </>
    );
  } else {
    content = (
      <SuccessPage
        card={card.card}
        route={route}
        checked={shell && 'success' in shell ? (shell.success ?? null) : undefined}
        receipt={shell?.receipt ?? null}
        onAnother={() => go({ page: 'form', cardId: card.card.id })}
      />
    );
  }

  return <GuestShell>{content}</GuestShell>;
}

/**
 * "Thank you!" only for a payment the server checked: this card's and paid. A made-up or foreign id gets a neutral
 * page. The reference is what support finds the payment by; the receipt goes out by e-mail through the outbox.
 */
function SuccessPage({
  card,
  route,
  checked,
  receipt,
  onAnother,
}: {
  card: PublicCard;
  route: Extract<TipRoute, { page: 'success' }>;
  /** undefined: the server did not check (vite dev), so the page asks for the payment itself. */
  checked: GuestSuccess | null | undefined;
  receipt: ReceiptOutcome | null;
  onAnother(): void;
}) {
  const t = useGuestT();
  const fetched = usePayment(checked === undefined ? route.paymentId : null, null);
  const success: GuestSuccess | null | undefined =
    checked !== undefined
      ? checked
      : fetched
        ? fetched.status === 'succeeded' && fetched.card_id === card.id
          ? {
              id: fetched.id,
              reference: paymentReference(fetched.id),
              amount_cents: fetched.amount_cents,
              total_cents: fetched.total_cents,
              next_charge_at: null,
              receipt_url: fetched.receipt_url,
              // Only the server's check carries the owner's thank-you (vite dev without the server has none).
              thank_you: null,
            }
          : null
        : undefined;
  const another = (
    <Button variant="secondary" size="lg" block onClick={onAnother}>
      {card.activity_type === 'DONATION' ? t('donation.another') : t('result.another_tip')}
    </Button>
  );
  if (success === undefined) return <Confirming />;
  if (success === null) return <PaymentNotFound>{another}</PaymentNotFound>;
  const amount = guestMoney(success.amount_cents);
  return (
    <OutcomeView
      tone="success"
      title={t('result.success_title')}
      testId="payment-success"
      text={
        <>
          <p data-testid="success-amount">
            {success.next_charge_at
              ? t('donation.monthly_success_text', { amount, name: card.public_name })
              : t(card.activity_type === 'DONATION' ? 'donation.success_text' : 'result.success_text', {
                  amount,
                  name: card.public_name,
                })}
          </p>
          {success.total_cents !== success.amount_cents ? (
            <p className="mt-1" data-testid="success-paid">
              {t('result.success_paid', { total: guestMoney(success.total_cents) })}
            </p>
          ) : null}
          {success.next_charge_at ? (
            <p className="mt-2" data-testid="success-next-charge">
              {t('donation.monthly_next', { date: formatDate(success.next_charge_at, 'longDate', guestLocale()) })}
            </p>
          ) : (
            <p className="mt-2">{t('result.success_note')}</p>
          )}
          <p className="mt-3 text-sm text-slate-500" data-testid="payment-reference">
            {t('result.reference', { id: success.reference })}
          </p>
        </>
      }
    >
      {success.thank_you ? <ThankYouNote thankYou={success.thank_you} name={card.public_name} /> : null}
      {success.receipt_url ? <ReceiptLink href={success.receipt_url} /> : null}
      <ReceiptForm cardId={card.id} paymentId={success.id} outcome={receipt} />
      {another}
    </OutcomeView>
  );
}

/** The card owner's thank-you (decision 0047): their words as text (React escapes them) and their photo. */
function ThankYouNote({ thankYou, name }: { thankYou: ThankYou; name: string }) {
  const t = useGuestT();
  const titleId = useId();
  return (
    <section
      aria-labelledby={titleId}
      className="rounded-2xl bg-slate-50 px-4 py-4 text-left ring-1 ring-slate-200"
      data-testid="thank-you-note"
    >
      {thankYou.image_url ? (
        <img
          src={thankYou.image_url}
          alt=""
          className="mb-3 max-h-60 w-full rounded-xl object-cover"
          data-testid="thank-you-photo"
        />
      ) : null}
      <h2 id={titleId} className="text-[15px] font-semibold text-primary-950">
        {t('result.thank_you_from', { name })}
      </h2>
      <p className="mt-1 whitespace-pre-line text-[15px] leading-relaxed text-slate-700 [overflow-wrap:anywhere]">
        {thankYou.text}
      </p>
    </section>
  );
}

/** The e-mailed receipt: a plain form (the server answers with this page again and what happened). */
function ReceiptForm({ cardId, paymentId, outcome }: { cardId: string; paymentId: string; outcome: ReceiptOutcome | null }) {
  const t = useGuestT();
  const id = useId();
  const locale = guestLocale();
  const localePath = locale === DEFAULT_LOCALE ? '' : `/${locale}`;
  if (outcome === 'sent') {
    return (
      <p
        role="status"
        className="rounded-2xl bg-emerald-50 px-4 py-3 text-sm font-medium text-emerald-800 ring-1 ring-emerald-200"
        data-testid="receipt-sent"
      >
        {t('receipt.sent')}
      </p>
    );
  }
  return (
    // Under the page's language prefix: the receipt (and a later answer to the guest's message) is written in it, and
    // the page comes back in it, whatever language the browser states.
    <form method="post" action={`${localePath}/payment/${encodeURIComponent(cardId)}/receipt`} className="text-left">
      <input type="hidden" name="payment" value={paymentId} />
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {t('receipt.label')}
      </label>
      <div className="mt-1.5 flex gap-2">
        <input
          id={id}
          name="email"
          type="email"
          required
          autoComplete="email"
          maxLength={254}
          aria-invalid={outcome === 'invalid' ? true : undefined}
          aria-describedby={outcome ? `${id}-problem` : undefined}
          className="block h-11 min-w-0 flex-1 rounded-xl border border-slate-300 bg-white px-3 text-base text-slate-900 shadow-xs focus:border-primary-600 focus:outline-none focus:ring-2 focus:ring-primary-100"
        />
        <Button type="submit" size="md" icon={<Mail className="size-4" aria-hidden="true" />}>
          {t('receipt.send')}
        </Button>
      </div>
      {outcome ? (
        <p id={`${id}-problem`} role="alert" className="mt-1 text-sm text-red-700">
          {outcome === 'invalid' ? t('validation:email') : t('errors:rate_limited')}
        </p>
      ) : null}
    </form>
  );
}

/** The provider's return page: waits for the outcome, then forwards to its page (the form again when it failed). */
function ResultPage({
  paymentId,
  onFinal,
}: {
  paymentId: string | null;
  onFinal(payment: PublicPayment, page: 'success' | 'canceled' | 'failed' | 'timeout'): void;
}) {
  const t = useGuestT();
  const { state, checkAgain } = usePaymentResult(paymentId);
  const { phase, payment } = state;

  // Forward to the outcome's own page (spec: the return page "forwards to success or canceled"); a declined or
  // unconfirmed payment goes back to the form with what the guest entered.
  useEffect(() => {
    if (!payment || phase === 'checking') return;
    onFinal(payment, phase === 'succeeded' ? 'success' : phase);
  }, [phase, payment, onFinal]);

  // No id, or one the API does not know: nothing says whether money was taken, so nothing claims it was not.
  if (phase === 'failed' && !payment) return <PaymentNotFound />;
  if (phase === 'timeout' && !payment) {
    return (
      <OutcomeView tone="timeout" title={t('result.timeout_title')} text={t('result.timeout_text')} testId="payment-timeout">
        <Button size="lg" block onClick={checkAgain} icon={<RotateCw className="size-4" aria-hidden="true" />}>
          {t('result.check_again')}
        </Button>
      </OutcomeView>
    );
  }
  return <Confirming />;
}

/** The provider's word on the payment is still awaited. */
function Confirming() {
  const t = useGuestT();
  return (
    <OutcomeView tone="checking" title={t('result.checking_title')} text={t('result.checking_text')} testId="payment-checking" />
  );
}

/** No paid payment of this card matches the link; the page claims nothing about the guest's money. */
function PaymentNotFound({ children }: { children?: ReactNode }) {
  const t = useGuestT();
  return (
    <OutcomeView tone="unknown" title={t('result.not_found_title')} text={t('result.not_found_text')} testId="payment-not-found">
      {children}
    </OutcomeView>
  );
}
