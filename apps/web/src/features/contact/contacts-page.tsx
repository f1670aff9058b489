import { useState, type ReactNode } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { z } from 'zod';
import { CheckCircle2, Mail, MapPin, Phone, Send } from 'lucide-react';
import { contactBody } from '@tipcard/shared/site/schemas';
import { Button } from '../../components/ui/button.tsx';
import { TextAreaField, TextField } from '../../components/ui/field.tsx';
import { HumanCheck } from '../../components/ui/human-check.tsx';
import { SocialLinks } from '../../components/ui/social-links.tsx';
import { serverFieldErrors } from '../../lib/api-errors.ts';
import { translateValidation, useNamespaces } from '../../lib/i18n.ts';
import { useSiteInfo } from '../../lib/site-info.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { OperatorDetails } from '../../components/ui/operator-details.tsx';
import { PageHero } from '../../components/ui/page-hero.tsx';
import { useSendContact } from './api/use-send-contact.ts';

type ContactInput = z.input<typeof contactBody>;

function DetailRow({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    // A group of a list of terms holds only its term and its description: the icon sits in the term.
    <div className="relative min-h-10 pl-13">
      <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">
        <span className="absolute left-0 top-0 grid size-10 place-items-center rounded-xl bg-primary-50 text-primary-800">
          {icon}
        </span>
        {label}
      </dt>
      <dd className="mt-0.5 font-medium text-primary-950">{children}</dd>
    </div>
  );
}

function ContactForm({ siteKey }: { siteKey: string | null }) {
  const { t } = useTranslation('marketing');
  const to = useLocalePath();
  const send = useSendContact();
  const [token, setToken] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<ContactInput, unknown, z.output<typeof contactBody>>({
    resolver: zodResolver(contactBody),
    defaultValues: { name: '', email: '', message: '' },
  });

  if (send.isSuccess) {
    return (
      <div role="status" className="flex flex-col items-start gap-3 rounded-2xl bg-emerald-50 p-6 ring-1 ring-emerald-200">
        <CheckCircle2 className="size-8 text-emerald-700" aria-hidden="true" />
        <h3 className="text-lg font-semibold text-emerald-900">{t('contacts.sent_title')}</h3>
        <p className="text-emerald-900/80">{t('contacts.sent_text')}</p>
        <Button
          variant="secondary"
          onClick={() => {
            reset();
            send.reset();
          }}
        >
          {t('contacts.send_another')}
        </Button>
      </div>
    );
  }

  const onSubmit = handleSubmit((values) =>
    send.mutate(
      { ...values, ...(token ? { turnstile_token: token } : {}) },
      {
        onError: (error) => {
          for (const [field, message] of serverFieldErrors(error))
            setError(field as Path<ContactInput>, { type: 'server', message }, { shouldFocus: true });
        },
      },
    ),
  );
  return (
    <form noValidate onSubmit={onSubmit} className="space-y-5">
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label={t('contacts.name')}
          autoComplete="name"
          error={translateValidation(errors.name?.message)}
          {...register('name')}
        />
        <TextField
          label={t('contacts.email_field')}
          type="email"
          autoComplete="email"
          error={translateValidation(errors.email?.message)}
          {...register('email')}
        />
      </div>
      <TextAreaField
        label={t('contacts.message')}
        rows={6}
        hint={t('contacts.message_hint')}
        error={translateValidation(errors.message?.message)}
        {...register('message')}
      />
      {siteKey ? <HumanCheck siteKey={siteKey} onToken={setToken} /> : null}
      <p className="text-xs text-slate-500">
        {t('contacts.privacy_note')}{' '}
        <Link to={to('/privacy')} className="font-semibold text-primary-800 underline underline-offset-4">
          {t('common:footer.privacy')}
        </Link>
      </p>
      <Button
        type="submit"
        size="lg"
        loading={send.isPending}
        disabled={Boolean(siteKey) && !token}
        icon={<Send className="size-4" aria-hidden="true" />}
      >
        {t('contacts.submit')}
      </Button>
    </form>
  );
}

export default function ContactsPage() {
  useNamespaces(['marketing']);
  const { t } = useTranslation('marketing');
  const site = useSiteInfo();
  useDocumentTitle(t('contacts.eyebrow'));
  // Only configured details are shown; with none, the box is left out rather than shown empty.
  const hasDetails = Boolean(
    site && (site.support.email || site.support.phone || site.company.address || Object.values(site.social).some(Boolean)),
  );

  return (
    <>
      <PageHero eyebrow={t('contacts.eyebrow')} title={t('contacts.title')} lead={t('contacts.lead')} />
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 sm:px-6 sm:py-16 lg:grid-cols-[1fr_1.6fr]">
        <div className="space-y-6">
          {hasDetails ? (
            <section aria-labelledby="details-title" className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200/70">
              <h2 id="details-title" className="text-lg font-semibold text-primary-950">
                {t('contacts.details_title')}
              </h2>
              <dl className="mt-5 space-y-4">
                {site?.support.email ? (
                  <DetailRow icon={<Mail className="size-5" aria-hidden="true" />} label={t('contacts.email')}>
                    <a href={`mailto:${site.support.email}`} className="underline-offset-4 hover:underline">
                      {site.support.email}
                    </a>
                  </DetailRow>
                ) : null}
                {site?.support.phone ? (
                  <DetailRow icon={<Phone className="size-5" aria-hidden="true" />} label={t('contacts.phone')}>
                    <a href={`tel:${site.support.phone.replace(/[^\d+]/g, '')}`} className="underline-offset-4 hover:underline">
                      {site.support.phone}
                    </a>
                  </DetailRow>
                ) : null}
                {site?.company.address ? (
                  <DetailRow icon={<MapPin className="size-5" aria-hidden="true" />} label={t('contacts.address')}>
                    {site.company.address}
                  </DetailRow>
                ) : null}
              </dl>
              <SocialLinks tone="light" className="mt-6 border-t border-slate-100 pt-4" />
            </section>
          ) : null}
          <OperatorDetails />
        </div>
        <section aria-labelledby="form-title" className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200/70 sm:p-8">
          <h2 id="form-title" className="mb-6 text-xl font-semibold text-primary-950">
            {t('contacts.form_title')}
          </h2>
          {site && !site.contact_form ? (
            <p className="text-slate-600">{t('contacts.unavailable')}</p>
          ) : (
            <ContactForm siteKey={site?.turnstile_site_key ?? null} />
          )}
        </section>
      </div>
    </>
  );
}
