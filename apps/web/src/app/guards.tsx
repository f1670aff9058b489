import { Navigate, Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../components/ui/spinner.tsx';
import { hasSession } from '../lib/tokens.ts';
import { useLocalePath } from '../lib/use-locale-path.ts';

export function PageLoader() {
  const { t } = useTranslation();
  return (
    <div className="grid min-h-[50vh] place-items-center text-primary-700">
      <Spinner className="scale-150" label={t('loading')} />
    </div>
  );
}

/** Logged-out pages (index, login, registration): a signed-in user goes to overview. */
export function GuestOnly() {
  const to = useLocalePath();
  if (hasSession()) return <Navigate to={to('/overview')} replace />;
  return <Outlet />;
}
