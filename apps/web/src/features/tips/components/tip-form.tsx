import {
  lazy,
  Suspense,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type FormEvent,
} from 'react';
import { Lock, MessageSquare } from 'lucide-react';
import type { CreatePaymentBody, PublicCard } from '@tipcard/shared/payments/schemas';
import { DEFAULT_LOCALE } from '@tipcard/shared/constants';
import { MESSAGE_MAX_LENGTH } from '@tipcard/shared/payments/fees';
import {
  checkoutWithWallet,
  defaultPreset,
  GUEST_WALLETS,
  type GuestWallet,
  type GuestFormNotice,
  type GuestFormStart,
} from '@tipcard/shared/payments/guest-form';
import { Button } from '../../../components/ui/button-base.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { TermsLabel } from '../../../components/guest/terms-label.tsx';
import { CheckboxField, TextAreaField, TextField } from '../../../components/ui/field.tsx';
import { createDonationPayment, createPublicPayment, guestErrorText, PublicApiError } from '../../../lib/guest-api.ts';
import { createIdempotencyKeeper } from '../../../lib/idempotency.ts';
import { guestLocale, guestMoney, useGuestT } from '../../../lib/guest-i18n.ts';
import {
  amountProblem,
  chosenAmount,
  formatPercent,
  limitsOf,
  presetsOf,
  summaryOf,
  type AmountLimits,
} from '../../../lib/tip-amount.ts';
import { rememberLeftForCheckout, takeLeftForCheckout } from '../left-for-checkout.ts';
import { takeTypedText } from '../typed-before-hydration.ts';
import { AmountPicker } from './amount-picker.tsx';
import { FeeSummary } from './fee-summary.tsx';
import { StarRating } from './star-rating.tsx';

interface TipFormProps {
  card: PublicCard;
  /** The anti-bot site key when the operator configured one: the widget shows and its token goes with the payment. */
  siteKey: string | null;
  /** The card disappeared between the page load and the payment (404). */
  onCardGone(): void;
  /** What the guest entered before (a payment that did not go through, a refused plain POST), with its message. */
  start?: GuestFormStart | null;
  /** The Idempotency-Key of a plain (no JavaScript) submission, chosen by the server when it rendered the page. */
  formKey?: string;
}

/** Loaded only when the operator configured the anti-bot check, so guests elsewhere never download it. */
const GuestHumanCheck = lazy(() => import('../../../components/guest/guest-human-check.tsx'));

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What the guest enters, named as the plain form posts it (the server reads the same names). */
interface TipFormValues {
  /** A preset's cents, and the free amount, which takes over once something is typed. */
  amount: { preset: number | null; custom: string };
  cover_fee: boolean;
  rating: number | null;
  message: string;
  terms: boolean;
  donor_name: string;
  email: string;
  donor_code: string;
  monthly: boolean;
}

/**
 * What is wrong with the entered values, by field, each problem named by its catalog key rather than its text, so a
 * change of language rewords it. The form's own state, not a form library's (react-hook-form was a tenth of this
 * page's script, decision 0052).
 */
type TipFormErrors = Partial<Record<keyof TipFormValues, string>>;

/** The form's own check (no zod on the guest pages: it would weigh more than the page), as the server checks it. */
function tipFormProblems(values: TipFormValues, limits: AmountLimits, donation: boolean): TipFormErrors {
  const errors: TipFormErrors = {};
  if (amountProblem(chosenAmount(values.amount.preset, values.amount.custom), limits)) {
    errors.amount = 'validation:amount_range';
  }
  if (!values.terms) errors.terms = 'form.terms_required';
  if (donation) {
    if (!values.donor_name.trim()) errors.donor_name = 'validation:not_blank';
    if (!EMAIL.test(values.email.trim())) errors.email = 'validation:email';
    if (!values.donor_code.trim()) errors.donor_code = 'validation:not_blank';
  }
  return errors;
}

/** The first problem's field, in the form's order, for keyboard and screen reader users to land on. */
function firstProblemSelector(errors: TipFormErrors): string {
  if (errors.amount) return 'input[inputmode="decimal"]';
  if (errors.donor_name) return 'input[name="donor_name"]';
  if (errors.email) return 'input[name="email"]';
  if (errors.donor_code) return 'input[name="donor_code"]';
  return 'input[type="checkbox"][name="terms"]';
}

/** Whether the browser has Apple Pay does not change while the page is open. */
const subscribeToNothing = () => () => undefined;
const browserHasApplePay = () => 'ApplePaySession' in window;

const WALLET_NAMES: Record<GuestWallet, string> = { apple_pay: 'Apple Pay', google_pay: 'Google Pay' };

/** The inline message a notice shows above the form (the spec's wording for a failure and a timeout). */
function noticeText(notice: GuestFormNotice, t: (key: string) => string): { title: string; text?: string } {
  switch (notice) {
    case 'failed':
      return { title: t('result.failed_title'), text: t('result.failed_text') };
    case 'canceled':
      return { title: t('result.canceled_title'), text: t('result.canceled_text') };
    case 'timeout':
      return { title: t('result.timeout_title'), text: t('result.timeout_text') };
    case 'rate_limited':
      return { title: t('errors:rate_limited') };
    case 'bot_check':
      return { title: t('errors:bot_check_failed') };
    case 'changed':
      return { title: t('errors:payment_changed') };
    case 'error':
      return { title: t('errors.generic'), text: t('errors.generic_text') };
  }
}

/**
 * The payment form (spec 3 "Payment form"): amount, optional fee cover, terms, pay; for a tip also stars and a
 * message, for a DONATION card the donor's name or company, e-mail and personal code or company number instead.
 * The tip form is a plain form first (the server answers its POST with the checkout, see docs/decisions/0030), laid
 * out so that an amount, the wallets and Pay fit the first screen of a 360×640 phone; the script takes the
 * submission over for the idempotent retry and the inline errors.
 */
export function TipForm({ card, siteKey, onCardGone, start, formKey }: TipFormProps) {
  const t = useGuestT();
  const limits = limitsOf(card);
  const presets = presetsOf(card);
  const donation = card.activity_type === 'DONATION';
  // The inputs are controlled by the form's values: the server renders them checked and filled from the same values,
  // so the plain form works before the script. The form checks at each submission, as the server does (the server's
  // word on a refused plain POST comes first), and a field's error goes as soon as the guest answers it.
  const [values, setValues] = useState<TipFormValues>(() => ({
    amount: { preset: start ? start.preset_cents : defaultPreset(presets), custom: start?.custom ?? '' },
    cover_fee: start?.cover_fee ?? false,
    rating: start?.rating ?? null,
    message: start?.message ?? '',
    terms: start?.terms ?? false,
    donor_name: start?.donor?.name ?? '',
    email: start?.donor?.email ?? '',
    donor_code: start?.donor?.code ?? '',
    monthly: start?.donor?.monthly ?? false,
  }));
  const [errors, setErrors] = useState<TipFormErrors>(() => ({
    ...(start?.errors.amount ? { amount: 'validation:amount_range' } : {}),
    ...(start?.errors.terms ? { terms: 'form.terms_required' } : {}),
    ...(start?.errors.donor_name ? { donor_name: 'validation:not_blank' } : {}),
    ...(start?.errors.email ? { email: 'validation:email' } : {}),
    ...(start?.errors.donor_code ? { donor_code: start.donor?.code.trim() ? 'validation:valid' : 'validation:not_blank' } : {}),
  }));
  const setValue = <Field extends keyof TipFormValues>(field: Field, value: TipFormValues[Field]) =>
    setValues((current) => ({ ...current, [field]: value }));
  const clearError = (field: keyof TipFormValues) =>
    setErrors((current) => (field in current ? { ...current, [field]: undefined } : current));
  const fieldError = (key: string | undefined) =>
    key ? t(key, { min: guestMoney(limits.minCents), max: guestMoney(limits.maxCents) }) : undefined;
  const [formError, setFormError] = useState<{ title: string; text?: string } | null>(null);
  // Why the form is shown again (kept as the notice, so it follows a change of language); gone at the next submission.
  const [notice, setNotice] = useState<GuestFormNotice | null>(start?.notice ?? null);
  const shownError = formError ?? (notice ? noticeText(notice, t) : null);
  // A payment not confirmed in time, still open at the provider: checking it comes first, paying again second.
  const unconfirmed = notice === 'timeout' ? start?.payment_id : null;
  const [submitting, setSubmitting] = useState(false);
  const [humanToken, setHumanToken] = useState<string | null>(null);
  // Tokens are single use: a new widget after every attempt that reached the server.
  const [humanCheckRound, setHumanCheckRound] = useState(0);
  const keeper = useMemo(() => createIdempotencyKeeper(), []);
  // Both wallets in the server's markup (it cannot know the device); once running, Apple Pay only where the browser
  // has it, as a payment sheet would.
  const applePay = useSyncExternalStore(subscribeToNothing, browserHasApplePay, () => true);
  const wallets = applePay ? GUEST_WALLETS : GUEST_WALLETS.filter((wallet) => wallet !== 'apple_pay');
  // A second tap can arrive before React re-renders the disabled button; this guard is synchronous.
  const inFlight = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  const errorId = useId();
  const coverId = useId();

  const amount = chosenAmount(values.amount.preset, values.amount.custom);
  const summary = summaryOf(amount, limits, card.fee_percent, values.cover_fee);
  const locale = guestLocale();

  // Coming back from the provider's page with the browser's back button restores this page from the bfcache,
  // still "redirecting": give the guest a working form again.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      inFlight.current = false;
      setSubmitting(false);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  // The server's form is on screen and usable before this script starts (after the first paint): hydration keeps
  // what the guest ticked or typed meanwhile on screen but starts the form from the server's values. The form
  // takes the screen's, before any tap reaches a handler, so a ticked box is not answered "accept the terms".
  useLayoutEffect(() => {
    const cameBack = takeLeftForCheckout<TipFormValues>(card.id);
    const entered = cameBack ?? fieldsOnScreen(formRef.current!);
    // A text area's hydration put the server's text back over an edit: what the guest typed is kept apart.
    setValues(cameBack ?? { ...entered, message: takeTypedText('message') ?? entered.message });
  }, [card.id]);

  const pay = async (entered: TipFormValues, wallet: string | null) => {
    if (siteKey && !humanToken) {
      setFormError({ title: t('errors:bot_check_failed') });
      return;
    }
    const amountCents = chosenAmount(entered.amount.preset, entered.amount.custom)!;
    const message = entered.message.trim();
    const body: CreatePaymentBody = {
      amount_cents: amountCents,
      cover_fee: entered.cover_fee,
      ...(entered.rating ? { rating: entered.rating } : {}),
      ...(message ? { message } : {}),
      terms_accepted: true,
    };
    inFlight.current = true;
    setSubmitting(true);
    try {
      const donor = {
        donor_name: entered.donor_name.trim(),
        email: entered.email.trim(),
        donor_code: entered.donor_code.trim(),
        monthly: entered.monthly,
      };
      const payment = donation
        ? // The donor's details take the message's place in what makes two submissions the same payment.
          await createDonationPayment(
            card.id,
            { ...donor, amount_cents: amountCents, cover_fee: entered.cover_fee, locale: guestLocale(), terms_accepted: true },
            keeper.keyFor({ ...body, message: JSON.stringify(donor) }),
            humanToken,
          )
        : await createPublicPayment(card.id, body, keeper.keyFor(body), humanToken);
      // Stay "loading" while the browser leaves for the provider's checkout.
      rememberLeftForCheckout(card.id, entered);
      window.location.assign(checkoutWithWallet(payment.checkout_url, wallet));
    } catch (error) {
      inFlight.current = false;
      setSubmitting(false);
      if (siteKey) {
        setHumanToken(null);
        setHumanCheckRound((round) => round + 1);
      }
      if (error instanceof PublicApiError && error.status === 404) return onCardGone();
      if (error instanceof PublicApiError && error.code === 'idempotency_key_reused') keeper.reset();
      setFormError(guestErrorText(error, t));
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (inFlight.current) return;
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const wallet = submitter instanceof HTMLButtonElement && submitter.name === 'wallet' ? submitter.value : null;
    setFormError(null);
    setNotice(null);
    const found = tipFormProblems(values, limits, donation);
    setErrors(found);
    if (Object.keys(found).length === 0) void pay(values, wallet);
    else formRef.current?.querySelector<HTMLInputElement>(firstProblemSelector(found))?.focus();
  };

  const payControls = (
    <div className="space-y-2">
      <CheckboxField
        name="terms"
        value="1"
        checked={values.terms}
        onChange={(event) => {
          setValue('terms', event.target.checked);
          if (event.target.checked) clearError('terms');
        }}
        error={fieldError(errors.terms)}
        label={<TermsLabel text={t('form.terms')} />}
      />
      {/* Pay first: Enter in a field submits with the form's first button, which must not pick a wallet. */}
      <Button type="submit" size="lg" block loading={submitting} icon={<Lock className="size-5" aria-hidden="true" />}>
        {submitting ? (
          t('form.redirecting')
        ) : summary ? (
          <PayLabel text={t('form.pay', { amount: '{{amount}}' })} amount={guestMoney(summary.totalCents)} />
        ) : (
          t('form.pay_choose')
        )}
      </Button>
      {wallets.length > 0 ? (
        <div className={cn('grid gap-2', wallets.length > 1 && 'grid-cols-2')}>
          {wallets.map((wallet) => (
            <button
              key={wallet}
              type="submit"
              name="wallet"
              value={wallet}
              disabled={submitting}
              aria-label={t('form.wallet', { wallet: WALLET_NAMES[wallet] })}
              className={cn(
                'inline-flex h-11 items-center justify-center rounded-xl bg-black px-2 text-base font-semibold text-white transition-colors hover:bg-slate-800',
                'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400 focus-visible:ring-offset-2 disabled:opacity-60',
              )}
            >
              {WALLET_NAMES[wallet]}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );

  return (
    <form
      ref={formRef}
      noValidate
      // A tip or a donation works without the script: the server answers this POST with the checkout (a POST, so a
      // donor's details never land in a URL).
      method="post"
      // In the page's language: the server answers a refused form with the page again, in the language its path names.
      action={`${locale === DEFAULT_LOCALE ? '' : `/${locale}`}/payment/${encodeURIComponent(card.id)}`}
      onSubmit={onSubmit}
      className="mt-3 space-y-3 rounded-3xl bg-white p-4 shadow-sm ring-1 ring-slate-200/70 sm:p-6"
    >
      {formKey ? <input type="hidden" name="idempotency_key" value={formKey} /> : null}
      <div id={errorId} aria-live="assertive">
        {shownError ? (
          <div
            role="alert"
            className="rounded-2xl bg-red-50 px-4 py-3 text-sm text-red-800 ring-1 ring-red-200"
            data-testid="form-notice"
          >
            <h2 className="font-semibold">{shownError.title}</h2>
            {shownError.text ? <p className="mt-0.5">{shownError.text}</p> : null}
            {unconfirmed ? (
              <a
                className="mt-2 inline-flex h-11 items-center rounded-xl bg-primary-800 px-4 font-semibold text-white hover:bg-primary-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400 focus-visible:ring-offset-2"
                href={`/${locale}/payment/walletto-result?payment=${encodeURIComponent(unconfirmed)}`}
                data-testid="check-again"
              >
                {t('result.check_again')}
              </a>
            ) : null}
          </div>
        ) : null}
      </div>

      <AmountPicker
        presets={presets}
        preset={values.amount.preset}
        custom={values.amount.custom}
        onPreset={(cents) => {
          setValue('amount', { preset: cents, custom: '' });
          clearError('amount');
        }}
        onCustom={(text) => {
          setValues((current) => ({ ...current, amount: { ...current.amount, custom: text } }));
          clearError('amount');
        }}
        hint={t('form.custom_hint', { min: guestMoney(limits.minCents), max: guestMoney(limits.maxCents) })}
        error={fieldError(errors.amount)}
        limits={{ min: String(limits.minCents / 100), max: String(limits.maxCents / 100) }}
      />

      <div>
        <label htmlFor={coverId} className="flex cursor-pointer items-center justify-between gap-4">
          <span className="text-sm font-semibold text-slate-800">{t('form.cover_fee')}</span>
          <input
            id={coverId}
            type="checkbox"
            role="switch"
            name="cover_fee"
            value="1"
            checked={values.cover_fee}
            onChange={(event) => setValue('cover_fee', event.target.checked)}
            className="peer sr-only"
          />
          <span
            aria-hidden="true"
            className="relative h-7 w-12 shrink-0 rounded-full bg-slate-300 transition-colors after:absolute after:left-1 after:top-1 after:size-5 after:rounded-full after:bg-white after:shadow after:transition-transform peer-checked:bg-primary-800 peer-checked:after:translate-x-5 peer-focus-visible:ring-2 peer-focus-visible:ring-accent-400 peer-focus-visible:ring-offset-2"
          />
        </label>
        {summary ? (
          <FeeSummary
            summary={summary}
            name={card.public_name}
            percent={formatPercent(card.fee_percent, locale)}
            coverFee={values.cover_fee}
            donation={donation}
          />
        ) : null}
      </div>

      {donation ? <FrequencyChoice monthly={values.monthly} onChange={(monthly) => setValue('monthly', monthly)} /> : null}

      {donation ? (
        <fieldset className="space-y-4">
          <legend className="text-sm font-semibold text-slate-800">{t('donation.donor_legend')}</legend>
          <TextField
            label={t('donation.name')}
            name="donor_name"
            autoComplete="name"
            maxLength={120}
            value={values.donor_name}
            onChange={(event) => setValue('donor_name', event.target.value)}
            error={fieldError(errors.donor_name)}
          />
          <TextField
            label={t('donation.email')}
            name="email"
            type="email"
            autoComplete="email"
            maxLength={254}
            value={values.email}
            onChange={(event) => setValue('email', event.target.value)}
            error={fieldError(errors.email)}
            hint={t('donation.email_hint')}
          />
          <TextField
            label={t('donation.code')}
            name="donor_code"
            autoComplete="off"
            maxLength={32}
            value={values.donor_code}
            onChange={(event) => setValue('donor_code', event.target.value)}
            error={fieldError(errors.donor_code)}
            hint={t('donation.code_hint')}
          />
        </fieldset>
      ) : (
        <>
          <StarRating value={values.rating} onChange={(rating) => setValue('rating', rating)} />

          {/* Closed by default so Pay stays on the first screen; a native disclosure, so it opens without the script. */}
          <details className="group" open={values.message !== '' || undefined}>
            <summary className="flex cursor-pointer list-none items-center gap-2 rounded-lg text-sm font-semibold text-primary-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400 [&::-webkit-details-marker]:hidden">
              <MessageSquare className="size-4" aria-hidden="true" />
              {t('form.message_add')}
              <span className="text-xs font-normal text-slate-500">{t('form.optional')}</span>
            </summary>
            <TextAreaField
              className="mt-2 [&_textarea]:min-h-20"
              label={t('form.message_label')}
              name="message"
              placeholder={t('form.message_placeholder')}
              maxLength={MESSAGE_MAX_LENGTH}
              rows={3}
              value={values.message}
              onChange={(event) => setValue('message', event.target.value)}
              hint={
                <span className="flex justify-end tabular-nums" aria-live="polite">
                  <span className="sr-only">
                    {t('form.message_left', { remaining: MESSAGE_MAX_LENGTH - values.message.length })}
                  </span>
                  <span aria-hidden="true">
                    {values.message.length}/{MESSAGE_MAX_LENGTH}
                  </span>
                </span>
              }
            />
          </details>
        </>
      )}

      {siteKey ? (
        <Suspense fallback={<div className="min-h-[65px]" />}>
          <GuestHumanCheck key={humanCheckRound} siteKey={siteKey} onToken={setHumanToken} />
        </Suspense>
      ) : null}

      {unconfirmed ? (
        // The first payment may still go through: paying again is a deliberate second step, never the next tap.
        <details className="rounded-2xl px-4 py-3 ring-1 ring-slate-200" data-testid="pay-again">
          <summary className="cursor-pointer text-sm font-semibold text-primary-900">{t('result.pay_again')}</summary>
          <p className="mt-1 text-sm text-slate-600">{t('result.pay_again_hint')}</p>
          <div className="mt-3">{payControls}</div>
        </details>
      ) : (
        payControls
      )}
    </form>
  );
}

/** The form's fields as they are on screen (a field the form does not have reads as empty). */
function fieldsOnScreen(form: HTMLFormElement): TipFormValues {
  const fields = new FormData(form);
  const text = (name: string) => {
    const value = fields.get(name);
    return typeof value === 'string' ? value : '';
  };
  const choice = (name: string) => Number(text(name)) || null;
  return {
    amount: { preset: choice('amount'), custom: text('custom_amount') },
    cover_fee: fields.has('cover_fee'),
    rating: choice('rating'),
    message: text('message'),
    terms: fields.has('terms'),
    donor_name: text('donor_name'),
    email: text('email'),
    donor_code: text('donor_code'),
    monthly: text('frequency') === 'monthly',
  };
}

/** One-off or monthly: a monthly donation saves the card at the checkout and is charged on this day each month. */
function FrequencyChoice({ monthly, onChange }: { monthly: boolean; onChange(monthly: boolean): void }) {
  const t = useGuestT();
  const hintId = useId();
  const option = (value: boolean, label: string) => (
    <label className="relative flex-1 cursor-pointer">
      <input
        type="radio"
        name="frequency"
        value={value ? 'monthly' : 'one_off'}
        checked={monthly === value}
        onChange={() => onChange(value)}
        className="peer absolute inset-0 z-10 size-full cursor-pointer appearance-none opacity-0"
      />
      <span className="block rounded-xl px-3 py-2.5 text-center text-[15px] font-semibold text-slate-700 transition-colors peer-checked:bg-white peer-checked:text-primary-900 peer-checked:shadow-sm peer-focus-visible:ring-2 peer-focus-visible:ring-accent-400">
        {label}
      </span>
    </label>
  );
  return (
    <fieldset aria-describedby={monthly ? hintId : undefined}>
      <legend className="text-sm font-semibold text-slate-800">{t('donation.frequency')}</legend>
      <div className="mt-2 flex gap-1 rounded-2xl bg-slate-100 p-1">
        {option(false, t('donation.one_off'))}
        {option(true, t('donation.monthly'))}
      </div>
      {monthly ? (
        <p id={hintId} className="mt-2 text-sm text-slate-500">
          {t('donation.monthly_hint')}
        </p>
      ) : null}
    </fieldset>
  );
}

/** "Pay €5.00" with the amount marked as the total the guest pays (the summary above leaves it to the button). */
function PayLabel({ text, amount }: { text: string; amount: string }) {
  const [before = '', after = ''] = text.split('{{amount}}');
  return (
    <span>
      {before}
      <span data-testid="summary-total">{amount}</span>
      {after}
    </span>
  );
}
