import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { FileText, Lock, RotateCw } from 'lucide-react';
import type { PublicInvoice } from '@tipcard/shared/invoices/schemas';
import { Avatar } from '../../components/ui/avatar.tsx';
import { Button, buttonClasses } from '../../components/ui/button-base.tsx';
import { CheckboxField } from '../../components/ui/field.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { newIdempotencyKey } from '../../lib/idempotency.ts';
import { localePrefixOf } from '../../lib/is-locale.ts';
import { readShellData } from '../../lib/shell-data.ts';
import {
  createInvoicePayment,
  fetchHumanCheckSiteKey,
  fetchPublicInvoice,
  guestErrorText,
  PublicApiError,
} from '../../lib/guest-api.ts';
import { OutcomeView } from '../../components/guest/outcome-view.tsx';
import { GuestShell } from '../../components/guest/guest-shell.tsx';
import { TermsLabel } from '../../components/guest/terms-label.tsx';
import { guestMoney, useGuestT } from '../../lib/guest-i18n.ts';
import { usePaymentResult } from '../../lib/use-payment-result.ts';
import { ReceiptLink } from '../../components/guest/receipt-link.tsx';

const GuestHumanCheck = lazy(() => import('../../components/guest/guest-human-check.tsx'));

type InvoiceState =
  { status: 'loading' } | { status: 'ready'; invoice: PublicInvoice } | { status: 'missing' } | { status: 'error' };

/** The invoice of the first paint: inlined by the server (apps/api invoices.routes.ts), otherwise fetched. */
function useInvoice(invoiceId: string) {
  const [state, setState] = useState<InvoiceState>(() => {
    const shell = readShellData<{ invoice?: PublicInvoice | null }>();
    if (shell && 'invoice' in shell) return shell.invoice ? { status: 'ready', invoice: shell.invoice } : { status: 'missing' };
    return { status: 'loading' };
  });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (state.status !== 'loading') return;
    const controller = new AbortController();
    fetchPublicInvoice(invoiceId, controller.signal)
      .then((invoice) => setState({ status: 'ready', invoice }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setState(error instanceof PublicApiError && error.status === 404 ? { status: 'missing' } : { status: 'error' });
      });
    return () => controller.abort();
  }, [invoiceId, state.status, attempt]);
  return {
    state,
    reload: () => {
      setState({ status: 'loading' });
      setAttempt((value) => value + 1);
    },
  };
}

/**
 * The payer's pages of an invoice (`/invoice/{id}`, `/success`, `/canceled`): who asks, what for and how much, and
 * the way to the provider's checkout; a paid or canceled invoice says so and offers no payment.
 */
export function InvoicePayerPage({ invoiceId, outcome }: { invoiceId: string; outcome: 'success' | 'canceled' | null }) {
  const t = useGuestT();
  const { state, reload } = useInvoice(invoiceId);
  const name = state.status === 'ready' ? state.invoice.recipient.public_name : null;
  useEffect(() => {
    document.title = name ? t('invoice.meta_title', { name }) : t('meta.generic_title');
  }, [name, t]);

  let content;
  if (state.status === 'missing') {
    content = (
      <OutcomeView tone="unknown" title={t('unknown.title')} text={t('invoice.unknown_text')} testId="invoice-unknown">
        <a href="/" className={buttonClasses('secondary', 'lg', true)}>
          {t('unknown.home')}
        </a>
      </OutcomeView>
    );
  } else if (state.status === 'loading') {
    content = (
      <div className="grid min-h-[60dvh] place-items-center text-primary-700">
        <Spinner label={t('invoice.loading')} className="[&_svg]:size-8" />
      </div>
    );
  } else if (state.status === 'error') {
    content = (
      <OutcomeView tone="failure" title={t('errors.generic')} text={t('errors:no_answer')}>
        <Button size="lg" block onClick={reload} icon={<RotateCw className="size-4" aria-hidden="true" />}>
          {t('result.try_again')}
        </Button>
      </OutcomeView>
    );
  } else if (outcome === 'success') {
    content = <InvoiceResult invoice={state.invoice} onGone={reload} />;
  } else if (outcome === 'canceled' && state.invoice.status === 'open') {
    content = <InvoiceAgain invoice={state.invoice} onGone={reload} notice="canceled" />;
  } else {
    content = (
      <>
        <InvoiceSummary invoice={state.invoice} />
        {state.invoice.status === 'open' ? (
          <InvoiceForm invoice={state.invoice} onGone={reload} />
        ) : (
          <ClosedNotice invoice={state.invoice} />
        )}
      </>
    );
  }
  return <GuestShell>{content}</GuestShell>;
}

function InvoiceSummary({ invoice }: { invoice: PublicInvoice }) {
  const t = useGuestT();
  const { recipient } = invoice;
  return (
    <section className="flex flex-col items-center text-center" aria-labelledby="invoice-title">
      <Avatar
        src={recipient.image_url}
        name={recipient.public_name}
        alt={t('card.photo_alt', { name: recipient.public_name })}
        className="size-20 rounded-full text-2xl shadow-lg shadow-primary-900/10 ring-4 ring-white"
      />
      <p className="mt-4 text-sm font-medium text-slate-500">{t('invoice.eyebrow')}</p>
      <h1 id="invoice-title" className="mt-0.5 text-2xl font-bold tracking-tight text-primary-950">
        {recipient.public_name}
      </h1>
      <div className="mt-5 w-full rounded-3xl bg-white p-5 text-left shadow-sm ring-1 ring-slate-200/70">
        <p className="flex items-start gap-3 text-[15px] text-slate-700">
          <FileText className="mt-0.5 size-5 shrink-0 text-primary-700" aria-hidden="true" />
          <span className="break-words" data-testid="invoice-description">
            {invoice.description}
          </span>
        </p>
        <p className="mt-4 flex items-baseline justify-between gap-3 border-t border-slate-100 pt-4">
          <span className="text-sm font-medium text-slate-500">{t('invoice.amount')}</span>
          <span className="text-2xl font-bold tabular-nums text-primary-950" data-testid="invoice-amount">
            {guestMoney(invoice.amount_cents)}
          </span>
        </p>
      </div>
    </section>
  );
}

function ClosedNotice({ invoice }: { invoice: PublicInvoice }) {
  const t = useGuestT();
  const paid = invoice.status === 'paid';
  return (
    <p
      role="status"
      data-testid={paid ? 'invoice-paid' : 'invoice-canceled'}
      className="mt-6 rounded-2xl bg-white px-4 py-4 text-center text-[15px] font-medium text-slate-700 shadow-sm ring-1 ring-slate-200/70"
    >
      {paid ? t('invoice.paid') : t('invoice.canceled')}
    </p>
  );
}

interface InvoiceFormValues {
  terms: boolean;
}

function InvoiceForm({ invoice, onGone }: { invoice: PublicInvoice; onGone(): void }) {
  const t = useGuestT();
  // Errors hold catalog keys, so a change of language rewords them; a field's error goes once it is answered.
  const {
    register,
    handleSubmit,
    clearErrors,
    formState: { errors },
  } = useForm<InvoiceFormValues>({ defaultValues: { terms: false }, reValidateMode: 'onSubmit' });
  const [formError, setFormError] = useState<{ title: string; text?: string } | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [siteKey, setSiteKey] = useState<string | null>(null);
  const [humanToken, setHumanToken] = useState<string | null>(null);
  const [humanCheckRound, setHumanCheckRound] = useState(0);
  // One payment per visit: a retry after a lost answer is answered with the same checkout.
  const key = useMemo(() => newIdempotencyKey(), []);
  const inFlight = useRef(false);

  useEffect(() => {
    const controller = new AbortController();
    void fetchHumanCheckSiteKey(controller.signal).then((found) => !controller.signal.aborted && setSiteKey(found));
    return () => controller.abort();
  }, []);
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      inFlight.current = false;
      setSubmitting(false);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  const pay = async () => {
    if (inFlight.current) return;
    if (siteKey && !humanToken) {
      setFormError({ title: t('errors:bot_check_failed') });
      return;
    }
    inFlight.current = true;
    setSubmitting(true);
    try {
      const payment = await createInvoicePayment(invoice.id, { terms_accepted: true }, key, humanToken);
      window.location.assign(payment.checkout_url);
    } catch (error) {
      inFlight.current = false;
      setSubmitting(false);
      if (siteKey) {
        setHumanToken(null);
        setHumanCheckRound((round) => round + 1);
      }
      // Paid or canceled meanwhile, or gone: the page shows what it is now.
      if (error instanceof PublicApiError && (error.status === 404 || error.code === 'invoice_not_open')) return onGone();
      setFormError(guestErrorText(error, t));
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        setFormError(null);
        void handleSubmit(pay)(event);
      }}
      className="mt-6 space-y-6 rounded-3xl bg-white p-5 shadow-sm ring-1 ring-slate-200/70 sm:p-6"
    >
      <CheckboxField
        {...register('terms', {
          validate: (accepted) => accepted || 'form.terms_required',
          onChange: (event: { target: HTMLInputElement }) => event.target.checked && clearErrors('terms'),
        })}
        error={errors.terms?.message ? t(errors.terms.message) : undefined}
        label={<TermsLabel text={t('form.terms')} />}
      />
      {siteKey ? (
        <Suspense fallback={<div className="min-h-[65px]" />}>
          <GuestHumanCheck key={humanCheckRound} siteKey={siteKey} onToken={setHumanToken} />
        </Suspense>
      ) : null}
      <div>
        <div aria-live="assertive">
          {formError ? (
            <div role="alert" className="mb-4 rounded-2xl bg-red-50 px-4 py-3 text-sm text-red-800 ring-1 ring-red-200">
              <p className="font-semibold">{formError.title}</p>
              {formError.text ? <p className="mt-0.5">{formError.text}</p> : null}
            </div>
          ) : null}
        </div>
        <Button type="submit" size="lg" block loading={submitting} icon={<Lock className="size-5" aria-hidden="true" />}>
          {submitting ? t('form.redirecting') : t('form.pay', { amount: guestMoney(invoice.amount_cents) })}
        </Button>
        <p className="mt-3 text-center text-xs text-slate-500">{t('form.methods')}</p>
      </div>
    </form>
  );
}

/**
 * A payment of an open invoice that did not go through: what happened, then the invoice and its form again, one tap
 * from another try. The address becomes the invoice's own, so a reload or a shared link is not a "success" page.
 */
function InvoiceAgain({ invoice, onGone, notice }: { invoice: PublicInvoice; onGone(): void; notice: 'failed' | 'canceled' }) {
  const t = useGuestT();
  useEffect(() => {
    window.history.replaceState(
      null,
      '',
      `${localePrefixOf(window.location.pathname)}/invoice/${encodeURIComponent(invoice.id)}`,
    );
  }, [invoice.id]);
  return (
    <>
      <div
        role="alert"
        className="mb-4 rounded-2xl bg-red-50 px-4 py-3 text-sm text-red-800 ring-1 ring-red-200"
        data-testid={notice === 'failed' ? 'invoice-failed' : 'invoice-payment-canceled'}
      >
        <h2 className="font-semibold">{t(notice === 'failed' ? 'result.failed_title' : 'result.canceled_title')}</h2>
        <p className="mt-0.5">{t(notice === 'failed' ? 'result.failed_text' : 'invoice.canceled_text')}</p>
      </div>
      <InvoiceSummary invoice={invoice} />
      <InvoiceForm invoice={invoice} onGone={onGone} />
    </>
  );
}

/** The return page: waits for the provider's word on the payment named in the URL. */
function InvoiceResult({ invoice, onGone }: { invoice: PublicInvoice; onGone(): void }) {
  const t = useGuestT();
  const [paymentId] = useState(() => new URLSearchParams(window.location.search).get('payment'));
  const { state, checkAgain } = usePaymentResult(paymentId);
  const { phase, payment } = state;
  if (phase === 'succeeded') {
    return (
      <OutcomeView
        tone="success"
        title={t('result.success_title')}
        testId="invoice-success"
        text={t('invoice.success_text', {
          amount: guestMoney(payment?.total_cents ?? invoice.amount_cents),
          name: invoice.recipient.public_name,
        })}
      >
        {payment?.receipt_url ? <ReceiptLink href={payment.receipt_url} /> : null}
      </OutcomeView>
    );
  }
  if (phase === 'failed' && payment?.status === 'refunded') {
    return <OutcomeView tone="canceled" title={t('invoice.paid')} text={t('invoice.refunded_text')} testId="invoice-refunded" />;
  }
  if ((phase === 'failed' || phase === 'canceled') && invoice.status === 'open') {
    return <InvoiceAgain invoice={invoice} onGone={onGone} notice={phase} />;
  }
  if (phase === 'failed' || phase === 'canceled') {
    return (
      <>
        <InvoiceSummary invoice={invoice} />
        <ClosedNotice invoice={invoice} />
      </>
    );
  }
  if (phase === 'timeout') {
    return (
      <OutcomeView tone="timeout" title={t('result.timeout_title')} text={t('invoice.timeout_text')} testId="invoice-timeout">
        <Button size="lg" block onClick={checkAgain} icon={<RotateCw className="size-4" aria-hidden="true" />}>
          {t('result.check_again')}
        </Button>
      </OutcomeView>
    );
  }
  return (
    <OutcomeView tone="checking" title={t('result.checking_title')} text={t('result.checking_text')} testId="invoice-checking" />
  );
}
