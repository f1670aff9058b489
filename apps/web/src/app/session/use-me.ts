import { useQuery } from '@tanstack/react-query';
import { meSchema, type Me } from '@tipcard/shared/auth/me-schema';
import { api } from '../../lib/api-client.ts';
import { hasSession } from '../../lib/tokens.ts';

export const meQueryKey = ['me'] as const;

/** The signed-in user (GET /me). Other features read the user and their private client through this hook. */
export function useMe() {
  return useQuery({
    queryKey: meQueryKey,
    queryFn: ({ signal }) => api.get('/me', meSchema, { signal }),
    enabled: hasSession(),
    staleTime: 60_000,
  });
}

/** The id of the user's private client (spec: the private one is the one used). */
export function privateClientId(me: Me | undefined): string | undefined {
  return (me?.clients.find((client) => client.type === 'private') ?? me?.clients[0])?.id;
}
