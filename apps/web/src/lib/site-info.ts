import { useQuery } from '@tanstack/react-query';
import type { SiteInfo } from '@tipcard/shared/site/schemas';
import { api } from './api-client.ts';

/** The element the server inlines page data into (apps/api web-shell `SHELL_DATA_ELEMENT_ID`). */
const SHELL_DATA_ID = 'tipcard-data';

/** The site details the server inlined into a public page, so its header and footer need no request. */
function inlinedSiteInfo(): SiteInfo | undefined {
  const element = typeof document === 'undefined' ? null : document.getElementById(SHELL_DATA_ID);
  if (!element?.textContent) return undefined;
  try {
    return (JSON.parse(element.textContent) as { site?: SiteInfo }).site;
  } catch {
    return undefined;
  }
}

/** The operator's configured details (company, support contacts, social links, anti-bot site key). */
export function useSiteInfo(): SiteInfo | undefined {
  return useQuery({
    queryKey: ['site'],
    queryFn: ({ signal }) => api.get<SiteInfo>('/site', { auth: false, errorHandling: 'none', signal }),
    initialData: inlinedSiteInfo,
    // Configuration changes only with a server restart.
    staleTime: Infinity,
  }).data;
}
