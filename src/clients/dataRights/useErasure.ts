import { useQuery } from '@tanstack/react-query';
import { useConsoleDataProvider } from '../../providers/dataProvider';

export const erasureKey = (clientId: number | undefined) => ['client-erasure', clientId] as const;

/** Whether the client was erased (null: not erased); one request shared by the page, the banner and the actions. */
export const useErasure = (clientId: number | undefined) => {
  const dataProvider = useConsoleDataProvider();
  return useQuery({ queryKey: erasureKey(clientId), queryFn: () => dataProvider.getClientErasure(clientId!), enabled: clientId !== undefined });
};
