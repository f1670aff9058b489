import { formatDate } from '@tipcard/shared/dates/format-date';
import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ChevronRight, LifeBuoy, Plus } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { currentLocale } from '../../lib/i18n.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { useTickets } from './api/use-support.ts';
import { NewTicketDialog } from './components/new-ticket-dialog.tsx';
import { TicketStatusBadge } from './components/ticket-status.tsx';

/** `/support`: the user's tickets (title, status, last updated, newest first) and the new-ticket modal. */
export default function SupportPage() {
  const { t } = useTranslation('support');
  const to = useLocalePath();
  const tickets = useTickets();
  const [creating, setCreating] = useState(false);
  useDocumentTitle(t('title'));

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <Button onClick={() => setCreating(true)} icon={<Plus className="size-4" aria-hidden="true" />}>
            {t('new_ticket')}
          </Button>
        }
      />
      <section className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200/70" aria-label={t('list_label')}>
        {tickets.isPending ? (
          <div className="grid place-items-center py-14">
            <Spinner label={t('loading')} />
          </div>
        ) : tickets.isError ? (
          <div className="flex flex-col items-center gap-3 px-6 py-14 text-center">
            <p className="text-sm text-slate-700">{t('load_failed')}</p>
            <Button variant="secondary" size="sm" onClick={() => void tickets.refetch()}>
              {t('retry')}
            </Button>
          </div>
        ) : tickets.data.length === 0 ? (
          <div className="flex flex-col items-center px-6 py-14 text-center" data-testid="tickets-empty">
            <span className="grid size-12 place-items-center rounded-2xl bg-primary-50 text-primary-700" aria-hidden="true">
              <LifeBuoy className="size-6" />
            </span>
            <h2 className="mt-4 text-lg font-semibold text-primary-950">{t('empty_title')}</h2>
            <p className="mt-1 max-w-sm text-sm text-slate-600">{t('empty_text')}</p>
          </div>
        ) : (
          <ul className="divide-y divide-slate-100" data-testid="ticket-list">
            {tickets.data.map((ticket) => (
              <li key={ticket.id}>
                <Link
                  to={to(`/support/${ticket.id}`)}
                  className="group flex items-center gap-3 px-5 py-4 transition-colors hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-accent-400 sm:px-6"
                >
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-semibold text-slate-900">{ticket.title}</span>
                    <span className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1">
                      <TicketStatusBadge status={ticket.status} />
                      <span className="text-sm text-slate-600">
                        {t('updated', { date: formatDate(ticket.updated_at, 'dateTime', currentLocale()) })}
                      </span>
                    </span>
                  </span>
                  <ChevronRight className="size-5 shrink-0 text-slate-400" aria-hidden="true" />
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
      <NewTicketDialog open={creating} onClose={() => setCreating(false)} />
    </div>
  );
}
