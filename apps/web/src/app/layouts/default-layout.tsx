import { Suspense, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  ArrowLeftRight,
  Bell,
  Building2,
  CircleAlert,
  FileText,
  Gift,
  HeartHandshake,
  IdCard,
  Landmark,
  LayoutDashboard,
  LifeBuoy,
  LogOut,
  Menu,
  Settings,
  ShieldCheck,
  UserRound,
  type LucideIcon,
} from 'lucide-react';
import { AnimatedOutlet } from '../../components/ui/animated-outlet.tsx';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { Drawer } from '../../components/ui/drawer.tsx';
import { LanguageList, LanguageSwitcher } from '../../components/ui/language-switcher.tsx';
import { Logo } from '../../components/ui/logo.tsx';
import { useLocalePath } from '../../lib/use-locale-path.ts';
import { useMyCard } from '../session/use-my-card.ts';
import { useLogout } from '../../features/auth/api/use-auth-actions.ts';
import { useVerificationReminder } from '../../features/verification/use-verification-reminder.ts';
import { useWaitingTicketCount } from '../../features/support/api/use-support.ts';
import { useWorkplace } from '../../features/teams/api/use-teams.ts';
import { useCardOrders } from '../../features/card-orders/api/use-card-orders.ts';
import { useNotices } from '../../features/notices/api/use-notices.ts';
import { PageLoader } from '../guards.tsx';
import { SiteFooter } from './site-footer.tsx';
import { SkipLink } from './skip-link.tsx';
import { LiveNotices } from './live-notices.tsx';
import { useFirstViewShown } from '../../lib/first-view.ts';

interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
  /** Shown as an alert icon beside the label (and read out), e.g. 'Verification required'. */
  alert?: string | undefined;
  /** A count shown as a badge (and read out as `badgeLabel`), e.g. support answers waiting for the user. */
  badge?: { count: number; label: string; testId: string } | undefined;
}

/** Side bar and mobile menu entries (spec 2): only the pages that exist so far. */
function useNavItems(): NavItem[] {
  const { t } = useTranslation();
  const to = useLocalePath();
  const { card, clientId, me } = useMyCard();
  const verificationRequired = useVerificationReminder();
  const waitingTickets = useWaitingTicketCount();
  // The admin's: join requests to answer.
  const team = useWorkplace(clientId).data?.team;
  const waitingRequests = team?.is_admin ? team.requests.length : 0;
  const cardOrders = useCardOrders(card ? clientId : undefined);
  const items: NavItem[] = [
    { to: to('/overview'), label: t('nav.overview'), icon: LayoutDashboard },
    { to: to('/transactions'), label: t('transactions:nav'), icon: ArrowLeftRight },
    { to: to('/payouts'), label: t('payouts:nav'), icon: Landmark },
    { to: to('/invoices'), label: t('invoices:nav'), icon: FileText },
    ...(me?.referral_available ? [{ to: to('/referrals'), label: t('referrals:nav'), icon: Gift }] : []),
    {
      to: to('/card-orders'),
      label: (cardOrders.data?.orders.length ?? 0) > 0 ? t('card-orders:nav_mine') : t('card-orders:nav'),
      icon: IdCard,
    },
    {
      to: to('/verification'),
      label: t('verification:nav'),
      icon: ShieldCheck,
      alert: verificationRequired ? t('verification:nav_required') : undefined,
    },
  ];
  if (card?.activity_type === 'DONATION') items.push({ to: to('/donations'), label: t('donations:nav'), icon: HeartHandshake });
  if (card) items.push({ to: to('/account'), label: t('nav.account'), icon: UserRound });
  items.push({
    to: to('/workplace'),
    label: t('teams:nav'),
    icon: Building2,
    badge:
      waitingRequests > 0
        ? { count: waitingRequests, label: t('teams:nav_requests', { count: waitingRequests }), testId: 'team-requests-badge' }
        : undefined,
  });
  items.push({
    to: to('/support'),
    label: t('support:nav'),
    icon: LifeBuoy,
    badge:
      waitingTickets > 0
        ? { count: waitingTickets, label: t('support:nav_waiting', { count: waitingTickets }), testId: 'support-badge' }
        : undefined,
  });
  items.push({ to: to('/settings'), label: t('settings:nav'), icon: Settings });
  return items;
}

function NavList({ items, onNavigate }: { items: NavItem[]; onNavigate?: () => void }) {
  return (
    <ul className="space-y-1">
      {items.map(({ to, label, icon: Icon, alert, badge }) => (
        <li key={to}>
          <NavLink
            to={to}
            onClick={onNavigate}
            className={({ isActive }) =>
              cn(
                'flex items-center gap-3 rounded-xl px-3 py-2.5 text-sm font-medium transition-colors',
                'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400',
                isActive ? 'bg-primary-900 text-white shadow-sm' : 'text-slate-700 hover:bg-slate-100 hover:text-primary-900',
              )
            }
          >
            <Icon className="size-5" aria-hidden="true" />
            {label}
            {alert ? (
              <span className="ml-auto grid place-items-center rounded-full bg-white text-amber-600" title={alert}>
                <CircleAlert className="size-5" aria-hidden="true" />
                <span className="sr-only">{alert}</span>
              </span>
            ) : null}
            {badge ? (
              <span
                className="ml-auto rounded-full bg-amber-500 px-2 py-0.5 text-xs font-bold text-white"
                data-testid={badge.testId}
              >
                <span aria-hidden="true">{badge.count}</span>
                <span className="sr-only">{badge.label}</span>
              </span>
            ) : null}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

/** The header's way to the notices (issue 29), at every width: a bell with the unread count, read out with it. */
function NoticesLink({ clientId }: { clientId: string | undefined }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const unread = useNotices(clientId).data?.unread ?? 0;
  return (
    <Link
      to={to('/notices')}
      data-testid="notices-link"
      className="relative rounded-lg p-2 text-slate-700 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400"
    >
      <Bell className="size-5" aria-hidden="true" />
      <span className="sr-only">
        {unread > 0 ? t('notices.bell_unread', { unread: t('notices.unread', { count: unread }) }) : t('notices.bell')}
      </span>
      {unread > 0 ? (
        <span
          aria-hidden="true"
          data-testid="notices-badge"
          className="absolute -right-0.5 -top-0.5 min-w-5 rounded-full bg-amber-500 px-1 text-center text-xs font-bold leading-5 text-white"
        >
          {unread}
        </span>
      ) : null}
    </Link>
  );
}

function MobileMenu({
  open,
  onClose,
  items,
  onLogout,
}: {
  open: boolean;
  onClose: () => void;
  items: NavItem[];
  onLogout: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Drawer open={open} onClose={onClose} label={t('nav.menu')}>
      <nav aria-label={t('nav.main')} className="flex-1 overflow-y-auto p-4">
        <NavList items={items} onNavigate={onClose} />
        <LanguageList className="mt-8 border-t border-slate-100 pt-6" />
      </nav>
      <div className="border-t border-slate-100 p-4">
        <Button variant="secondary" block onClick={onLogout} icon={<LogOut className="size-4" aria-hidden="true" />}>
          {t('actions.log_out')}
        </Button>
      </div>
    </Drawer>
  );
}

/** The signed-in area: header (logo → overview, language, log out), side bar or mobile menu, footer. */
export function DefaultLayout() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const items = useNavItems();
  const logout = useLogout();
  const location = useLocation();
  const { clientId, me } = useMyCard();
  // The live stream waits for the first view (lib/first-view.ts): on a weak network it would hold a connection.
  const firstViewOnScreen = useFirstViewShown();
  // A deleted account signed in to restore it has nothing live to hear of, nor notices to read.
  const liveClientId = me && !me.deletion && firstViewOnScreen ? clientId : undefined;
  // The menu belongs to the page it was opened on: it closes by itself on route change.
  const [menuPath, setMenuPath] = useState<string | null>(null);
  const menuOpen = menuPath === location.pathname;
  const setMenuOpen = (open: boolean) => setMenuPath(open ? location.pathname : null);

  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <SkipLink />
      <header className="sticky top-0 z-30 border-b border-slate-200/70 bg-white/90 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-4 sm:px-6">
          <button
            type="button"
            onClick={() => setMenuOpen(true)}
            aria-expanded={menuOpen}
            className="-ml-2 rounded-lg p-2 text-slate-700 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400 lg:hidden"
          >
            <Menu className="size-6" aria-hidden="true" />
            <span className="sr-only">{t('nav.open_menu')}</span>
          </button>
          <Link
            to={to('/overview')}
            aria-label="Tipcard"
            className="mr-auto rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent-400"
          >
            <Logo />
          </Link>
          <NoticesLink clientId={liveClientId} />
          <LanguageSwitcher className="hidden sm:block" />
          <Button
            variant="ghost"
            size="sm"
            onClick={() => logout.mutate()}
            loading={logout.isPending}
            icon={<LogOut className="size-4" aria-hidden="true" />}
          >
            <span className="sr-only sm:not-sr-only">{t('actions.log_out')}</span>
          </Button>
        </div>
      </header>
      <div className="mx-auto flex w-full max-w-7xl flex-1 gap-8 px-4 sm:px-6">
        <nav aria-label={t('nav.main')} className="hidden w-56 shrink-0 py-8 lg:block">
          <div className="sticky top-24">
            <NavList items={items} />
          </div>
        </nav>
        <main id="main-content" tabIndex={-1} className="min-w-0 flex-1 py-6 focus:outline-none sm:py-8">
          <Suspense fallback={<PageLoader />}>
            <AnimatedOutlet />
          </Suspense>
        </main>
      </div>
      <SiteFooter wide />
      <LiveNotices clientId={liveClientId} />
      <MobileMenu open={menuOpen} onClose={() => setMenuOpen(false)} items={items} onLogout={() => logout.mutate()} />
    </div>
  );
}
