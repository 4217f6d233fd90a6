import { useQuery } from '@tanstack/react-query';
import { useConsoleDataProvider, type ConsoleDataProvider } from '../../providers/dataProvider';
import type { ClientRecord } from '../clientsData';

export type ClientSection = 'contracts' | 'recent-videos' | 'favorites' | 'purchases' | 'debug' | 'pushes' | 'history' | 'automated-messages';

/** TanStack Query key of one section's data; actions invalidate it after changing that data. */
export const clientSectionKey = (clientId: number, section: ClientSection) => ['clients', clientId, section] as const;

/**
 * Loads one section of the client-details page. The spec has purchases, contracts and debug
 * failures logged (`log`); every failure also reaches the section, which says so with a Retry
 * (an empty text over a failed call would read as "this client has none").
 */
export function useClientSection<T>(
  client: ClientRecord,
  section: ClientSection,
  load: (dataProvider: ConsoleDataProvider, client: ClientRecord) => Promise<T[]>,
  options: { log?: boolean } = {},
) {
  const dataProvider = useConsoleDataProvider();
  return useQuery({
    queryKey: clientSectionKey(client._id, section),
    queryFn: async () => {
      try {
        return await load(dataProvider, client);
      } catch (error) {
        if (options.log) console.error(`Loading the client's ${section} failed`, error);
        throw error;
      }
    },
    retry: false,
  });
}
