import { QueryClient, type QueryKey } from '@tanstack/react-query';
import type { AuthProvider } from 'react-admin';

/** An authProvider that can say canAccess's answer at once when it knows it (authProvider.ts). */
type KnowsAccess = { canAccessNow?: (resource: string, action: string) => boolean | undefined };

/** What react-admin's useCanAccess (ra-core 5) puts in its query key: ['auth', 'canAccess', params]. */
const accessAsked = (queryKey: QueryKey | undefined): { resource: string; action: string } | undefined => {
  if (!queryKey || queryKey[0] !== 'auth' || queryKey[1] !== 'canAccess') return undefined;
  const params = queryKey[2] as { resource?: unknown; action?: unknown } | undefined;
  return typeof params?.resource === 'string' && typeof params.action === 'string' ? { resource: params.resource, action: params.action } : undefined;
};

/**
 * react-admin's QueryClient, with access checks answered as they are asked when the authProvider
 * already knows the answer. react-admin asks canAccess through a query even when the answer is at
 * hand, and every screen, menu entry and list waits a render for it: on a cold client list that
 * was two more renders of the whole screen (~1,000 components each) before the rows. The answer
 * is the one the query would fetch, kept for the page's life: the role changes only on sign-in,
 * which reloads the page.
 */
export function createQueryClient(authProvider: AuthProvider): QueryClient {
  const client = new QueryClient();
  const knows = (authProvider as AuthProvider & KnowsAccess).canAccessNow;
  if (!knows) return client;
  const defaults = client.defaultQueryOptions.bind(client);
  client.defaultQueryOptions = ((options: Parameters<QueryClient['defaultQueryOptions']>[0]) => {
    const defaulted = defaults(options);
    const asked = accessAsked(defaulted.queryKey);
    const answer = asked && knows(asked.resource, asked.action);
    return answer === undefined ? defaulted : { ...defaulted, initialData: answer, initialDataUpdatedAt: Date.now(), staleTime: Infinity };
  }) as QueryClient['defaultQueryOptions'];
  return client;
}
