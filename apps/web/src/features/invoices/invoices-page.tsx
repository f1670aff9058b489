import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Check, Copy, Inbox, Plus, QrCode, Share2, XCircle } from 'lucide-react';
import { INVOICE_DESCRIPTION_MAX_LENGTH } from '@tipcard/shared/invoices/limits';
import { createInvoiceBody, type Invoice, type InvoiceStatus } from '@tipcard/shared/invoices/schemas';
import { rule } from '@tipcard/shared/validation-rules';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { Dialog } from '../../components/ui/dialog.tsx';
import { ListState } from '../../components/ui/list-state.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { Money } from '../../components/ui/money.tsx';
import { PageHeader, Panel } from '../../components/ui/page-header.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { parseAmountInput } from '@tipcard/shared/money/amount-input';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { canShare, shareLink, useCopyLink } from '../../lib/share-link.ts';
import { serverFieldErrors } from '../../lib/api-errors.ts';
import { currentLocale, translateValidation } from '../../lib/i18n.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { useMyCard } from '../../app/session/use-my-card.ts';
import { useCancelInvoice, useCreateInvoice, useInvoiceQr, useInvoices } from './api/use-invoices.ts';

const STATUS_STYLES: Record<InvoiceStatus, string> = {
  open: 'bg-amber-50 text-amber-800 ring-amber-200',
  paid: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  canceled: 'bg-slate-100 text-slate-600 ring-slate-200',
};

/** What the form holds: the amount as typed ("12,50"), read into the shared body's integer cents on submit. */
const createInvoiceForm = z.object({
  description: createInvoiceBody.shape.description,
  amount: z.string().transform((text, ctx) => {
    const cents = parseAmountInput(text);
    if (cents !== null && createInvoiceBody.shape.amount_cents.safeParse(cents).success) return cents;
    ctx.addIssue({ code: 'custom', message: rule('invoice_amount_range') });
    return z.NEVER;
  }),
});
type CreateInvoiceInput = z.input<typeof createInvoiceForm>;

/** The server names the body's fields; the form types the amount in its own field. */
const FORM_FIELDS: Record<string, keyof CreateInvoiceInput> = { description: 'description', amount_cents: 'amount' };

function CreateInvoiceForm({ clientId }: { clientId: string | undefined }) {
  const { t } = useTranslation('invoices');
  const create = useCreateInvoice(clientId);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<CreateInvoiceInput, unknown, z.output<typeof createInvoiceForm>>({
    resolver: zodResolver(createInvoiceForm),
    defaultValues: { description: '', amount: '' },
  });
  const amountError = translateValidation(errors.amount?.message);

  const onSubmit = handleSubmit(({ description, amount }) =>
    create.mutate(
      { description, amount_cents: amount },
      {
        onSuccess: () => reset(),
        onError: (error) => {
          for (const [field, message] of serverFieldErrors(error)) {
            const formField = FORM_FIELDS[field];
            if (formField) setError(formField, { type: 'server', message }, { shouldFocus: true });
          }
        },
      },
    ),
  );

  return (
    <Panel>
      <h2 className="text-base font-semibold text-primary-950">{t('create.title')}</h2>
      <form noValidate onSubmit={onSubmit} className="mt-4 grid gap-4 sm:grid-cols-[1fr_10rem_auto] sm:items-start">
        <TextField
          label={t('create.description')}
          maxLength={INVOICE_DESCRIPTION_MAX_LENGTH}
          placeholder={t('create.description_placeholder')}
          error={translateValidation(errors.description?.message)}
          {...register('description')}
        />
        <TextField
          label={t('create.amount')}
          inputMode="decimal"
          autoComplete="off"
          prefix="€"
          error={amountError}
          {...register('amount')}
        />
        <Button
          type="submit"
          loading={create.isPending}
          className="sm:mt-7"
          icon={<Plus className="size-4" aria-hidden="true" />}
        >
          {t('create.submit')}
        </Button>
      </form>
    </Panel>
  );
}

function StatusBadge({ status }: { status: InvoiceStatus }) {
  const { t } = useTranslation('invoices');
  return (
    <span className={cn('inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1', STATUS_STYLES[status])}>
      {t(`status.${status}`)}
    </span>
  );
}

function InvoiceRow({ invoice, onQr, onCancel }: { invoice: Invoice; onQr(): void; onCancel(): void }) {
  const { t } = useTranslation('invoices');
  const { copied, copy } = useCopyLink();
  return (
    <li className="py-4" data-testid="invoice-row" data-status={invoice.status}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="break-words font-medium text-primary-950">{invoice.description}</p>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-500">
            <StatusBadge status={invoice.status} />
            <span>{t('row.created', { date: formatDate(invoice.created_at, 'listDate', currentLocale()) })}</span>
            {invoice.paid_at ? (
              <span>{t('row.paid', { date: formatDate(invoice.paid_at, 'listDate', currentLocale()) })}</span>
            ) : null}
          </p>
        </div>
        <Money
          cents={invoice.amount_cents}
          className="shrink-0 whitespace-nowrap text-lg font-bold tabular-nums text-primary-950"
        />
      </div>
      {invoice.status === 'open' ? (
        <>
          <p
            className="mt-3 break-all rounded-xl bg-slate-50 px-3 py-2 font-mono text-xs text-slate-700 ring-1 ring-slate-200"
            data-testid="invoice-link"
          >
            {invoice.url}
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Button
              variant="secondary"
              size="sm"
              onClick={() => void copy(invoice.url)}
              icon={copied ? <Check className="size-4" aria-hidden="true" /> : <Copy className="size-4" aria-hidden="true" />}
            >
              {copied ? t('common:actions.copied') : t('row.copy')}
            </Button>
            {canShare() ? (
              <Button
                variant="secondary"
                size="sm"
                onClick={() => void shareLink({ title: invoice.description, url: invoice.url })}
                icon={<Share2 className="size-4" aria-hidden="true" />}
              >
                {t('row.share')}
              </Button>
            ) : null}
            <Button variant="secondary" size="sm" onClick={onQr} icon={<QrCode className="size-4" aria-hidden="true" />}>
              {t('row.qr')}
            </Button>
            <Button variant="ghost" size="sm" onClick={onCancel} icon={<XCircle className="size-4" aria-hidden="true" />}>
              {t('row.cancel')}
            </Button>
          </div>
          <p className="sr-only" aria-live="polite">
            {copied ? t('common:actions.copied') : ''}
          </p>
        </>
      ) : null}
    </li>
  );
}

function QrDialog({ clientId, invoice, onClose }: { clientId: string | undefined; invoice: Invoice | null; onClose(): void }) {
  const { t } = useTranslation('invoices');
  const qr = useInvoiceQr(clientId, invoice?.id ?? null);
  return (
    <Dialog open={Boolean(invoice)} onClose={onClose} title={t('qr.title')}>
      {invoice ? (
        <div className="flex flex-col items-center text-center">
          <p className="text-sm text-slate-600">{invoice.description}</p>
          <div className="mt-4 grid size-56 place-items-center rounded-2xl bg-white ring-1 ring-slate-200">
            {qr.url ? (
              <img src={qr.url} alt={t('qr.alt', { description: invoice.description })} className="size-52" />
            ) : qr.isError ? (
              <p className="text-sm text-red-700">{t('qr.error')}</p>
            ) : (
              <Spinner label={t('qr.loading')} />
            )}
          </div>
          {qr.url ? (
            <a
              href={qr.url}
              download={`invoice-${invoice.id}.png`}
              className="mt-4 text-sm font-medium text-primary-800 underline underline-offset-2"
            >
              {t('qr.download')}
            </a>
          ) : null}
        </div>
      ) : null}
    </Dialog>
  );
}

function CancelDialog({
  clientId,
  invoice,
  onClose,
}: {
  clientId: string | undefined;
  invoice: Invoice | null;
  onClose(): void;
}) {
  const { t } = useTranslation('invoices');
  const cancel = useCancelInvoice(clientId);
  return (
    <Dialog
      open={Boolean(invoice)}
      onClose={onClose}
      title={t('cancel.title')}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('cancel.keep')}
          </Button>
          <Button
            variant="danger"
            loading={cancel.isPending}
            onClick={() => invoice && cancel.mutate(invoice.id, { onSettled: onClose })}
          >
            {t('cancel.confirm')}
          </Button>
        </>
      }
    >
      <p className="text-sm text-slate-600">{t('cancel.text', { description: invoice?.description ?? '' })}</p>
    </Dialog>
  );
}

export default function InvoicesPage() {
  const { t } = useTranslation('invoices');
  const to = useLocalePath();
  const { clientId, card, isPending } = useMyCard();
  const invoices = useInvoices(clientId);
  const [qrFor, setQrFor] = useState<Invoice | null>(null);
  const [cancelFor, setCancelFor] = useState<Invoice | null>(null);
  useDocumentTitle(t('title'));

  if (!isPending && !card) {
    return (
      <div className="mx-auto max-w-3xl">
        <PageHeader title={t('title')} description={t('description')} />
        <Panel>
          <p className="text-sm text-slate-600">{t('needs_card')}</p>
          <ButtonLink to={to('/account/create')} className="mt-4">
            {t('create_card')}
          </ButtonLink>
        </Panel>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-3xl space-y-5">
      <PageHeader title={t('title')} description={t('description')} />
      <CreateInvoiceForm clientId={clientId} />
      <Panel className="py-4! sm:py-5!">
        <h2 className="text-base font-semibold text-primary-950">{t('list.title')}</h2>
        <ListState
          query={invoices}
          loadingLabel={t('list.loading')}
          errorText={t('list.error')}
          empty={{
            icon: <Inbox className="size-7" />,
            title: t('list.empty_title'),
            text: t('list.empty_text'),
            testId: 'invoices-empty',
          }}
        >
          {(items) => (
            <ul aria-label={t('list.title')} className="divide-y divide-slate-100">
              {items.map((invoice) => (
                <InvoiceRow
                  key={invoice.id}
                  invoice={invoice}
                  onQr={() => setQrFor(invoice)}
                  onCancel={() => setCancelFor(invoice)}
                />
              ))}
            </ul>
          )}
        </ListState>
      </Panel>
      <QrDialog clientId={clientId} invoice={qrFor} onClose={() => setQrFor(null)} />
      <CancelDialog clientId={clientId} invoice={cancelFor} onClose={() => setCancelFor(null)} />
    </div>
  );
}
