import { formatDate } from '@tipcard/shared/dates/format-date';
import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ChevronRight, LifeBuoy, Plus } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { ListState } from '../../components/ui/list-state.tsx';
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
        <ListState
          query={tickets}
          loadingLabel={t('loading')}
          errorText={t('load_failed')}
          empty={{
            icon: <LifeBuoy className="size-7" />,
            title: t('empty_title'),
            text: t('empty_text'),
            testId: 'tickets-empty',
          }}
        >
          {(items) => (
            <ul className="divide-y divide-slate-100" data-testid="ticket-list">
              {items.map((ticket) => (
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
        </ListState>
      </section>
      <NewTicketDialog open={creating} onClose={() => setCreating(false)} />
    </div>
  );
}
