import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Check, Copy, Inbox, Plus, QrCode, Share2, XCircle } from 'lucide-react';
import { INVOICE_DESCRIPTION_MAX_LENGTH, INVOICE_MAX_CENTS, INVOICE_MIN_CENTS } from '@tipcard/shared/invoices/limits';
import type { Invoice, InvoiceStatus } from '@tipcard/shared/invoices/schemas';
import { RULE_VARIABLES } from '@tipcard/shared/validation-rules';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { Dialog } from '../../components/ui/dialog.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { Money } from '../../components/ui/money.tsx';
import { PageHeader, Panel } from '../../components/ui/page-header.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { parseAmountInput } from '@tipcard/shared/money/amount-input';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { currentLocale } from '../../lib/i18n.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { useMyCard } from '../../app/session/use-my-card.ts';
import { useCancelInvoice, useCreateInvoice, useInvoiceQr, useInvoices } from './api/use-invoices.ts';

const STATUS_STYLES: Record<InvoiceStatus, string> = {
  open: 'bg-amber-50 text-amber-800 ring-amber-200',
  paid: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  canceled: 'bg-slate-100 text-slate-600 ring-slate-200',
};

function CreateInvoiceForm({ clientId }: { clientId: string | undefined }) {
  const { t } = useTranslation('invoices');
  const create = useCreateInvoice(clientId);
  const [description, setDescription] = useState('');
  const [amount, setAmount] = useState('');
  const [errors, setErrors] = useState<{ description?: string; amount?: string }>({});

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const cents = parseAmountInput(amount);
    const next = {
      description: description.trim() ? undefined : t('validation:not_blank'),
      amount:
        cents === null || cents < INVOICE_MIN_CENTS || cents > INVOICE_MAX_CENTS
          ? t('validation:invoice_amount_range', RULE_VARIABLES.invoice_amount_range)
          : undefined,
    };
    setErrors(next);
    if (next.description || next.amount) return;
    create.mutate(
      { description: description.trim(), amount_cents: cents! },
      {
        onSuccess: () => {
          setDescription('');
          setAmount('');
        },
      },
    );
  };

  return (
    <Panel>
      <h2 className="text-base font-semibold text-primary-950">{t('create.title')}</h2>
      <form noValidate onSubmit={onSubmit} className="mt-4 grid gap-4 sm:grid-cols-[1fr_10rem_auto] sm:items-start">
        <TextField
          label={t('create.description')}
          name="description"
          value={description}
          maxLength={INVOICE_DESCRIPTION_MAX_LENGTH}
          placeholder={t('create.description_placeholder')}
          onChange={(event) => setDescription(event.target.value)}
          error={errors.description}
        />
        <TextField
          label={t('create.amount')}
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          prefix="€"
          onChange={(event) => setAmount(event.target.value)}
          error={errors.amount}
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
  const [copied, setCopied] = useState(false);
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(invoice.url);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      /* clipboard not available: the link is visible and selectable */
    }
  };
  const share = () => navigator.share({ title: invoice.description, url: invoice.url }).catch(() => undefined);
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
              onClick={() => void copy()}
              icon={copied ? <Check className="size-4" aria-hidden="true" /> : <Copy className="size-4" aria-hidden="true" />}
            >
              {copied ? t('common:actions.copied') : t('row.copy')}
            </Button>
            {canShare ? (
              <Button
                variant="secondary"
                size="sm"
                onClick={() => void share()}
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

  const items = invoices.data ?? [];
  return (
    <div className="mx-auto max-w-3xl space-y-5">
      <PageHeader title={t('title')} description={t('description')} />
      <CreateInvoiceForm clientId={clientId} />
      <Panel className="py-4! sm:py-5!">
        <h2 className="text-base font-semibold text-primary-950">{t('list.title')}</h2>
        {invoices.isPending ? (
          <div role="status" className="grid place-items-center py-10 text-primary-700">
            <Spinner label={t('list.loading')} />
          </div>
        ) : invoices.isError ? (
          <div className="flex flex-col items-center py-10 text-center">
            <p className="text-sm text-slate-600">{t('list.error')}</p>
            <Button variant="secondary" className="mt-3" onClick={() => void invoices.refetch()}>
              {t('list.retry')}
            </Button>
          </div>
        ) : items.length === 0 ? (
          <div className="flex flex-col items-center px-6 py-12 text-center" data-testid="invoices-empty">
            <span className="grid size-14 place-items-center rounded-2xl bg-primary-50 text-primary-700" aria-hidden="true">
              <Inbox className="size-7" />
            </span>
            <h3 className="mt-4 text-lg font-semibold text-primary-950">{t('list.empty_title')}</h3>
            <p className="mt-1 max-w-sm text-sm text-slate-600">{t('list.empty_text')}</p>
          </div>
        ) : (
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
      </Panel>
      <QrDialog clientId={clientId} invoice={qrFor} onClose={() => setQrFor(null)} />
      <CancelDialog clientId={clientId} invoice={cancelFor} onClose={() => setCancelFor(null)} />
    </div>
  );
}
