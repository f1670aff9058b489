import { useQuery } from '@tanstack/react-query';
import type { SiteInfo } from '@tipcard/shared/site/schemas';
import { api } from './api-client.ts';
import { readShellData } from './shell-data.ts';
import { formatEuro } from './format-euro.ts';
import { i18n } from './i18n.ts';

/** The site details the server inlined into a public page, so its header and footer need no request. */
function inlinedSiteInfo(): SiteInfo | undefined {
  return readShellData<{ site?: SiteInfo }>()?.site;
}

/** The operator's configured details (company, support contacts, social links, anti-bot site key). */
export function useSiteInfo(): SiteInfo | undefined {
  return useQuery({
    queryKey: ['site'],
    // The schema (and zod) load only when the page came without the details: the landing page's startup stays light.
    queryFn: async ({ signal }) => {
      const { siteInfoSchema } = await import('@tipcard/shared/site/schemas');
      return api.get('/site', siteInfoSchema, { auth: false, errorHandling: 'none', signal });
    },
    initialData: inlinedSiteInfo,
    // Configuration changes only with a server restart.
    staleTime: Infinity,
  }).data;
}

/**
 * The configured hold period and verification limit as the terms and FAQ quote them (`{{hold}}`,
 * `{{verification_limit}}`), in the reader's language; an ellipsis until the site details have arrived.
 */
export function useConfiguredFigures(): { hold: string; verification_limit: string } {
  const figures = useSiteInfo()?.figures;
  if (!figures) return { hold: '…', verification_limit: '…' };
  return {
    hold: i18n.t('common:duration.hours', { count: figures.hold_hours }),
    verification_limit: formatEuro(figures.verification_limit_cents),
  };
}
