import { useCallback, useState } from 'react';
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

/**
 * What a signed-in page shows while the session loads. On the app's first page, served to a signed-in visitor, that
 * is the server's skeleton of the signed-in layout (index.html `#boot.boot-app`), kept where it is: taken into the
 * app's tree, since the app's first elements (the snackbar's live region) would otherwise hide it, and gone with this
 * component, when the layout takes its place (decision 0056). Later, the page loader.
 */
export function SessionLoader() {
  const [skeleton] = useState(() => document.querySelector<HTMLElement>('#boot.boot-app'));
  const adopt = useCallback((container: HTMLDivElement | null) => void (skeleton && container?.append(skeleton)), [skeleton]);
  return skeleton ? <div ref={adopt} /> : <PageLoader />;
}

/** Logged-out pages (index, login, registration): a signed-in user goes to overview. */
export function GuestOnly() {
  const to = useLocalePath();
  if (hasSession()) return <Navigate to={to('/overview')} replace />;
  return <Outlet />;
}
