import { lazy, Suspense, useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { Lock } from 'lucide-react';
import type { CreatePaymentBody, PublicCard } from '@tipcard/shared/payments/schemas';
import { MESSAGE_MAX_LENGTH } from '@tipcard/shared/payments/fees';
import { RULE_VARIABLES } from '@tipcard/shared/validation-rules';
import { Button } from '../../../components/ui/button-base.tsx';
import { CheckboxField, TextAreaField, TextField } from '../../../components/ui/field.tsx';
import { formatEuro } from '../../../lib/format-euro.ts';
import { localizePath } from '../../../lib/locale.ts';
import { createDonationPayment, createPublicPayment, PublicApiError } from '../api/public-api.ts';
import { createIdempotencyKeeper } from '../../../lib/idempotency.ts';
import { paymentLocale, usePaymentT } from '../payment-i18n.ts';
import { amountProblem, chosenAmount, formatPercent, limitsOf, presetsOf, summaryOf } from '../tip-amount.ts';
import { AmountPicker } from './amount-picker.tsx';
import { FeeSummary } from './fee-summary.tsx';
import { StarRating } from './star-rating.tsx';

interface TipFormProps {
  card: PublicCard;
  /** The anti-bot site key when the operator configured one: the widget shows and its token goes with the payment. */
  siteKey: string | null;
  /** The card disappeared between the page load and the payment (404). */
  onCardGone(): void;
}

/** Loaded only when the operator configured the anti-bot check, so guests elsewhere never download it. */
const PaymentHumanCheck = lazy(() => import('./payment-human-check.tsx'));

type FieldErrors = Partial<Record<'amount' | 'terms' | 'donor_name' | 'email' | 'donor_code', string>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The payment form (spec 3 "Payment form"): amount, optional fee cover, terms, pay; for a tip also stars and a
 * message, for a DONATION card the donor's name or company, e-mail and personal code or company number instead.
 */
export function TipForm({ card, siteKey, onCardGone }: TipFormProps) {
  const t = usePaymentT();
  const limits = limitsOf(card);
  const [preset, setPreset] = useState<number | null>(null);
  const [custom, setCustom] = useState('');
  const [coverFee, setCoverFee] = useState(false);
  const [rating, setRating] = useState<number | null>(null);
  const [message, setMessage] = useState('');
  const [terms, setTerms] = useState(false);
  const donation = card.activity_type === 'DONATION';
  const [donorName, setDonorName] = useState('');
  const [email, setEmail] = useState('');
  const [donorCode, setDonorCode] = useState('');
  const [monthly, setMonthly] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<{ title: string; text?: string } | null>(null);
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
  const rangeText = t('validation:amount_range', RULE_VARIABLES.amount_range);

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

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (inFlight.current) return;
    const found = validate();
    setErrors(found);
    setFormError(null);
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
      setFormError({ title: t('errors.bot_check') });
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
            { ...donor, amount_cents: amount!, cover_fee: coverFee, locale: paymentLocale(), terms_accepted: true },
            keeper.keyFor({ ...body, message: JSON.stringify(donor) }),
            humanToken,
          )
        : await createPublicPayment(card.id, body, keeper.keyFor(body), humanToken);
      // Stay "loading" while the browser leaves for the provider's checkout.
      window.location.assign(payment.checkout_url);
    } catch (error) {
      inFlight.current = false;
      setSubmitting(false);
      if (siteKey) {
        setHumanToken(null);
        setHumanCheckRound((round) => round + 1);
      }
      if (error instanceof PublicApiError && error.status === 404) return onCardGone();
      if (error instanceof PublicApiError && error.code === 'idempotency_key_reused') keeper.reset();
      setFormError(errorText(error, t));
    }
  };

  return (
    <form ref={formRef} noValidate onSubmit={(event) => void onSubmit(event)} className="mt-6 space-y-6 rounded-3xl bg-white p-5 shadow-sm ring-1 ring-slate-200/70 sm:p-6">
      <AmountPicker
        presets={presetsOf(card)}
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
      />

      <div>
        <label htmlFor={coverId} className="flex cursor-pointer items-center justify-between gap-4">
          <span>
            <span className="block text-sm font-semibold text-slate-800">{t('form.cover_fee')}</span>
            <span className="mt-0.5 block text-sm text-slate-500">{t(donation ? 'donation.cover_fee_hint' : 'form.cover_fee_hint', { name: card.public_name })}</span>
          </span>
          <input
            id={coverId}
            type="checkbox"
            role="switch"
            checked={coverFee}
            onChange={(event) => setCoverFee(event.target.checked)}
            className="peer sr-only"
          />
          <span
            aria-hidden="true"
            className="relative h-8 w-13 shrink-0 rounded-full bg-slate-300 transition-colors after:absolute after:left-1 after:top-1 after:size-6 after:rounded-full after:bg-white after:shadow after:transition-transform peer-checked:bg-primary-800 peer-checked:after:translate-x-5 peer-focus-visible:ring-2 peer-focus-visible:ring-accent-400 peer-focus-visible:ring-offset-2"
          />
        </label>
        {summary ? <FeeSummary summary={summary} name={card.public_name} percent={formatPercent(card.fee_percent, paymentLocale())} coverFee={coverFee} /> : null}
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

        <TextAreaField
          label={t('form.message_label')}
          optional={t('form.optional')}
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
          className="[&_textarea]:min-h-20"
        />
        </>
      )}

      <CheckboxField
        name="terms"
        checked={terms}
        onChange={(event) => {
          setTerms(event.target.checked);
          if (event.target.checked) setErrors((current) => ({ ...current, terms: undefined }));
        }}
        error={errors.terms}
        label={
          <TermsLabel text={t('form.terms')} />
        }
      />

      {siteKey ? (
        <Suspense fallback={<div className="min-h-[65px]" />}>
          <PaymentHumanCheck key={humanCheckRound} siteKey={siteKey} onToken={setHumanToken} />
        </Suspense>
      ) : null}

      <div>
        <div id={errorId} aria-live="assertive">
          {formError ? (
            <div role="alert" className="mb-4 rounded-2xl bg-red-50 px-4 py-3 text-sm text-red-800 ring-1 ring-red-200">
              <p className="font-semibold">{formError.title}</p>
              {formError.text ? <p className="mt-0.5">{formError.text}</p> : null}
            </div>
          ) : null}
        </div>
        <Button type="submit" size="lg" block loading={submitting} icon={<Lock className="size-5" aria-hidden="true" />}>
          {submitting ? t('form.redirecting') : summary ? t('form.pay', { amount: formatEuro(summary.totalCents) }) : t('form.pay_choose')}
        </Button>
        <p className="mt-3 text-center text-xs text-slate-500">{t('form.methods')}</p>
      </div>
    </form>
  );
}

/** One-off or monthly: a monthly donation saves the card at the checkout and is charged on this day each month. */
function FrequencyChoice({ monthly, onChange }: { monthly: boolean; onChange(monthly: boolean): void }) {
  const t = usePaymentT();
  const hintId = useId();
  const option = (value: boolean, label: string) => (
    <label className="relative flex-1 cursor-pointer">
      <input type="radio" name="frequency" value={value ? 'monthly' : 'one_off'} checked={monthly === value} onChange={() => onChange(value)} className="peer absolute inset-0 z-10 size-full cursor-pointer appearance-none opacity-0" />
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

/** The terms sentence with its `<link>…</link>` part as a link to the terms, opened beside the form. */
export function TermsLabel({ text }: { text: string }) {
  const [before = '', linkText = '', after = ''] = text.split(/<link>|<\/link>/);
  return (
    <>
      {before}
      <a href={localizePath('/terms', paymentLocale())} target="_blank" rel="noopener" className="font-medium text-primary-800 underline underline-offset-2">
        {linkText}
      </a>
      {after}
    </>
  );
}

export function errorText(error: unknown, t: (key: string) => string): { title: string; text?: string } {
  if (!(error instanceof PublicApiError)) return { title: t('errors.generic'), text: t('errors.generic_text') };
  if (error.status === 0) return { title: t('errors.network') };
  if (error.status === 429) return { title: t('errors.rate_limited') };
  if (error.code === 'bot_check_failed') return { title: t('errors.bot_check') };
  if (error.code === 'idempotency_key_reused') return { title: t('errors.changed') };
  return { title: t('errors.generic'), text: t('errors.generic_text') };
}
