import { useTranslation } from 'react-i18next';
import { FileQuestion, LifeBuoy, RotateCw, TriangleAlert } from 'lucide-react';
import { Button, ButtonLink } from '../components/ui/button.tsx';
import { hasSession } from '../lib/tokens.ts';
import { useLocalePath } from '../lib/use-locale-path.ts';

/** The error page (spec 2): 404 'This link is no longer active…' with a home link; otherwise 'Something went wrong'. */
export function ErrorPage({ status }: { status: number }) {
  const { t } = useTranslation('errors');
  const to = useLocalePath();
  const notFound = status === 404;
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center px-4 py-16 text-center sm:py-24">
      <span
        className={
          notFound
            ? 'grid size-16 place-items-center rounded-2xl bg-primary-50 text-primary-800'
            : 'grid size-16 place-items-center rounded-2xl bg-red-50 text-red-700'
        }
      >
        {notFound ? (
          <FileQuestion className="size-8" aria-hidden="true" />
        ) : (
          <TriangleAlert className="size-8" aria-hidden="true" />
        )}
      </span>
      <p className="mt-6 text-sm font-semibold uppercase tracking-wider text-slate-500">{t('status', { status })}</p>
      <h1 className="mt-2 text-2xl font-bold tracking-tight text-primary-950 sm:text-3xl">
        {notFound ? t('not_found') : t('something_went_wrong')}
      </h1>
      <p className="mt-3 text-slate-600">{notFound ? t('not_found_text') : t('something_went_wrong_text')}</p>
      <div className="mt-8 flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
        {notFound ? (
          <ButtonLink to={to('/')} size="lg">
            {t('go_home')}
          </ButtonLink>
        ) : (
          <>
            {/* Signed in: the support centre, where the answer comes back; otherwise the contact page (support's e-mail is configuration and may not be set). */}
            <ButtonLink
              to={to(hasSession() ? '/support' : '/contacts')}
              size="lg"
              icon={<LifeBuoy className="size-4" aria-hidden="true" />}
            >
              {t('contact_support')}
            </ButtonLink>
            <Button
              variant="secondary"
              size="lg"
              onClick={() => window.location.reload()}
              icon={<RotateCw className="size-4" aria-hidden="true" />}
            >
              {t('common:actions.retry')}
            </Button>
          </>
        )}
      </div>
    </div>
  );
}
