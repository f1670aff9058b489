import { useQuery } from '@tanstack/react-query';
import { siteInfoSchema, type SiteInfo } from '@tipcard/shared/site/schemas';
import { api } from './api-client.ts';
import { readShellData } from './shell-data.ts';

/** The site details the server inlined into a public page, so its header and footer need no request. */
function inlinedSiteInfo(): SiteInfo | undefined {
  return readShellData<{ site?: SiteInfo }>()?.site;
}

/** The operator's configured details (company, support contacts, social links, anti-bot site key). */
export function useSiteInfo(): SiteInfo | undefined {
  return useQuery({
    queryKey: ['site'],
    queryFn: ({ signal }) => api.get('/site', siteInfoSchema, { auth: false, errorHandling: 'none', signal }),
    initialData: inlinedSiteInfo,
    // Configuration changes only with a server restart.
    staleTime: Infinity,
  }).data;
}
