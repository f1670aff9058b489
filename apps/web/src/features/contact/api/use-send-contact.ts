import { useMutation } from '@tanstack/react-query';
import type { ContactBody } from '@tipcard/shared/site/schemas';
import { api } from '../../../lib/api-client.ts';

/** POST /api/contact; errors show through the API client's snackbar (422, 429, 403 anti-bot). */
export function useSendContact() {
  return useMutation({ mutationFn: (body: ContactBody) => api.post('/contact', body, null, { auth: false }) });
}
