import { useGuestT } from '../../lib/guest-i18n.ts';

/** The payer's receipt (page and PDF, docs/decisions/0042), under a success message of the guest pages. */
export function ReceiptLink({ href }: { href: string }) {
  const t = useGuestT();
  return (
    <a
      href={href}
      className="block rounded-2xl px-4 py-3 text-center font-semibold text-primary-800 underline underline-offset-4 ring-1 ring-slate-200 hover:bg-slate-50"
      data-testid="receipt-link"
    >
      {t('receipt.view')}
    </a>
  );
}
