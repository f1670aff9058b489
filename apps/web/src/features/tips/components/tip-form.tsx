import { lazy, Suspense, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Lock, MessageSquare } from 'lucide-react';
import type { CreatePaymentBody, PublicCard } from '@tipcard/shared/payments/schemas';
import { MESSAGE_MAX_LENGTH } from '@tipcard/shared/payments/fees';
import {
  checkoutWithWallet,
  defaultPreset,
  GUEST_WALLETS,
  type GuestFormNotice,
  type GuestFormStart,
} from '@tipcard/shared/payments/guest-form';
import { RULE_VARIABLES } from '@tipcard/shared/validation-rules';
import { Button } from '../../../components/ui/button-base.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { TermsLabel } from '../../../components/guest/terms-label.tsx';
import { CheckboxField, TextAreaField, TextField } from '../../../components/ui/field.tsx';
import { createDonationPayment, createPublicPayment, guestErrorText, PublicApiError } from '../../../lib/guest-api.ts';
import { createIdempotencyKeeper } from '../../../lib/idempotency.ts';
import { guestLocale, guestMoney, useGuestT } from '../../../lib/guest-i18n.ts';
import { amountProblem, chosenAmount, formatPercent, limitsOf, presetsOf, summaryOf } from '../../../lib/tip-amount.ts';
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

type FieldErrors = Partial<Record<'amount' | 'terms' | 'donor_name' | 'email' | 'donor_code', string>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const WALLET_NAMES: Record<(typeof GUEST_WALLETS)[number], string> = { apple_pay: 'Apple Pay', google_pay: 'Google Pay' };

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
  const [preset, setPreset] = useState<number | null>(start ? start.preset_cents : defaultPreset(presets));
  const [custom, setCustom] = useState(start?.custom ?? '');
  const [coverFee, setCoverFee] = useState(start?.cover_fee ?? false);
  const [rating, setRating] = useState<number | null>(start?.rating ?? null);
  const [message, setMessage] = useState(start?.message ?? '');
  const [terms, setTerms] = useState(start?.terms ?? false);
  const donation = card.activity_type === 'DONATION';
  const [donorName, setDonorName] = useState('');
  const [email, setEmail] = useState('');
  const [donorCode, setDonorCode] = useState('');
  const [monthly, setMonthly] = useState(false);
  const rangeText = t('validation:amount_range', RULE_VARIABLES.amount_range);
  const [errors, setErrors] = useState<FieldErrors>(() => ({
    ...(start?.errors.amount ? { amount: rangeText } : {}),
    ...(start?.errors.terms ? { terms: t('form.terms_required') } : {}),
  }));
  const [formError, setFormError] = useState<{ title: string; text?: string } | null>(null);
  // Why the form is shown again (kept as the notice, so it follows a change of language); gone at the next submission.
  const [notice, setNotice] = useState<GuestFormNotice | null>(start?.notice ?? null);
  const shownError = formError ?? (notice ? noticeText(notice, t) : null);
  const [submitting, setSubmitting] = useState(false);
  const [humanToken, setHumanToken] = useState<string | null>(null);
  // Tokens are single use: a new widget after every attempt that reached the server.
  const [humanCheckRound, setHumanCheckRound] = useState(0);
  const keeper = useMemo(() => createIdempotencyKeeper(), []);
  // A second tap can arrive before React re-renders the disabled button; this guard is synchronous.
  const inFlight = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  const errorId = useId();
  const coverId = useId();

  const amount = chosenAmount(preset, custom);
  const summary = summaryOf(amount, limits, card.fee_percent, coverFee);
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
  // what the guest ticked or typed meanwhile on screen but starts the state from the server's values. The state
  // takes the screen's, before any tap reaches a handler, so a ticked box is not answered "accept the terms".
  useLayoutEffect(() => {
    const entered = fieldsOnScreen(formRef.current!);
    setPreset(entered.preset);
    setCustom(entered.custom);
    setCoverFee(entered.coverFee);
    setRating(entered.rating);
    // A text area's hydration put the server's text back over an edit: what the guest typed is kept apart.
    setMessage(takeTypedText('message') ?? entered.message);
    setTerms(entered.terms);
    setDonorName(entered.donorName);
    setEmail(entered.email);
    setDonorCode(entered.donorCode);
    setMonthly(entered.monthly);
  }, []);

  const validate = (): FieldErrors => {
    const next: FieldErrors = {};
    if (amountProblem(amount, limits)) next.amount = rangeText;
    if (!terms) next.terms = t('form.terms_required');
    if (donation) {
      if (!donorName.trim()) next.donor_name = t('validation:not_blank');
      if (!EMAIL.test(email.trim())) next.email = t('validation:email');
      if (!donorCode.trim()) next.donor_code = t('validation:not_blank');
    }
    return next;
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (inFlight.current) return;
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const wallet = submitter instanceof HTMLButtonElement && submitter.name === 'wallet' ? submitter.value : null;
    const found = validate();
    setErrors(found);
    setFormError(null);
    setNotice(null);
    if (Object.values(found).some(Boolean)) {
      // Focus the first problem so keyboard and screen reader users land on it.
      const selector = found.amount
        ? 'input[inputmode="decimal"]'
        : found.donor_name
          ? 'input[name="donor_name"]'
          : found.email
            ? 'input[name="email"]'
            : found.donor_code
              ? 'input[name="donor_code"]'
              : 'input[type="checkbox"][name="terms"]';
      formRef.current?.querySelector<HTMLInputElement>(selector)?.focus();
      return;
    }
    if (siteKey && !humanToken) {
      setFormError({ title: t('errors:bot_check_failed') });
      return;
    }
    const body: CreatePaymentBody = {
      amount_cents: amount!,
      cover_fee: coverFee,
      ...(rating ? { rating } : {}),
      ...(message.trim() ? { message: message.trim() } : {}),
      terms_accepted: true,
    };
    inFlight.current = true;
    setSubmitting(true);
    try {
      const donor = { donor_name: donorName.trim(), email: email.trim(), donor_code: donorCode.trim(), monthly };
      const payment = donation
        ? // The donor's details take the message's place in what makes two submissions the same payment.
          await createDonationPayment(
            card.id,
            { ...donor, amount_cents: amount!, cover_fee: coverFee, locale: guestLocale(), terms_accepted: true },
            keeper.keyFor({ ...body, message: JSON.stringify(donor) }),
            humanToken,
          )
        : await createPublicPayment(card.id, body, keeper.keyFor(body), humanToken);
      // Stay "loading" while the browser leaves for the provider's checkout.
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

  return (
    <form
      ref={formRef}
      noValidate
      // A tip works without the script: the server answers this POST with the checkout. Donations need the script;
      // their form posts too, so a donor's details never land in a URL, and the server asks to try again.
      method="post"
      action={`/payment/${encodeURIComponent(card.id)}`}
      onSubmit={(event) => void onSubmit(event)}
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
            {notice === 'timeout' && start?.payment_id ? (
              <a
                className="mt-1 inline-block font-semibold underline underline-offset-2"
                href={`/payment/walletto-result?payment=${encodeURIComponent(start.payment_id)}`}
              >
                {t('result.check_again')}
              </a>
            ) : null}
          </div>
        ) : null}
      </div>

      <AmountPicker
        presets={presets}
        preset={preset}
        custom={custom}
        onPreset={(cents) => {
          setPreset(cents);
          setCustom('');
          setErrors((current) => ({ ...current, amount: undefined }));
        }}
        onCustom={(text) => {
          setCustom(text);
          if (errors.amount) setErrors((current) => ({ ...current, amount: undefined }));
        }}
        hint={t('form.custom_hint', RULE_VARIABLES.amount_range)}
        error={errors.amount}
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
            checked={coverFee}
            onChange={(event) => setCoverFee(event.target.checked)}
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
            coverFee={coverFee}
          />
        ) : null}
      </div>

      {donation ? <FrequencyChoice monthly={monthly} onChange={setMonthly} /> : null}

      {donation ? (
        <fieldset className="space-y-4">
          <legend className="text-sm font-semibold text-slate-800">{t('donation.donor_legend')}</legend>
          <TextField
            label={t('donation.name')}
            name="donor_name"
            autoComplete="name"
            maxLength={120}
            value={donorName}
            onChange={(event) => setDonorName(event.target.value)}
            error={errors.donor_name}
          />
          <TextField
            label={t('donation.email')}
            name="email"
            type="email"
            autoComplete="email"
            maxLength={254}
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            error={errors.email}
            hint={t('donation.email_hint')}
          />
          <TextField
            label={t('donation.code')}
            name="donor_code"
            autoComplete="off"
            maxLength={32}
            value={donorCode}
            onChange={(event) => setDonorCode(event.target.value)}
            error={errors.donor_code}
            hint={t('donation.code_hint')}
          />
        </fieldset>
      ) : (
        <>
          <StarRating value={rating} onChange={setRating} />

          {/* Closed by default so Pay stays on the first screen; a native disclosure, so it opens without the script. */}
          <details className="group" open={message !== '' || undefined}>
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
              value={message}
              onChange={(event) => setMessage(event.target.value)}
              hint={
                <span className="flex justify-end tabular-nums" aria-live="polite">
                  <span className="sr-only">{t('form.message_left', { remaining: MESSAGE_MAX_LENGTH - message.length })}</span>
                  <span aria-hidden="true">
                    {message.length}/{MESSAGE_MAX_LENGTH}
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

      <div className="space-y-2">
        <CheckboxField
          name="terms"
          value="1"
          checked={terms}
          onChange={(event) => {
            setTerms(event.target.checked);
            if (event.target.checked) setErrors((current) => ({ ...current, terms: undefined }));
          }}
          error={errors.terms}
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
        {donation ? null : (
          <div className="grid grid-cols-2 gap-2">
            {GUEST_WALLETS.map((wallet) => (
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
        )}
      </div>
    </form>
  );
}

/** The form's fields as they are on screen (a field the form does not have reads as empty). */
function fieldsOnScreen(form: HTMLFormElement) {
  const fields = new FormData(form);
  const text = (name: string) => {
    const value = fields.get(name);
    return typeof value === 'string' ? value : '';
  };
  const choice = (name: string) => Number(text(name)) || null;
  return {
    preset: choice('amount'),
    custom: text('custom_amount'),
    coverFee: fields.has('cover_fee'),
    rating: choice('rating'),
    message: text('message'),
    terms: fields.has('terms'),
    donorName: text('donor_name'),
    email: text('email'),
    donorCode: text('donor_code'),
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

/** "Pay € 5.00" with the amount marked as the total the guest pays (the summary above leaves it to the button). */
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
