import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UpdateAutomationSettingsRequest } from '@contract/automation';
import { useConsoleDataProvider } from '../../providers/dataProvider';

export const automationKey = (typeId: number, part: 'settings' | 'preview' | 'counts') => ['automated-messages', typeId, part] as const;

export function useAutomationSettings(typeId: number) {
  const dataProvider = useConsoleDataProvider();
  return useQuery({ queryKey: automationKey(typeId, 'settings'), queryFn: () => dataProvider.getAutomationSettings(typeId), retry: false });
}

export function useSaveAutomationSettings(typeId: number) {
  const dataProvider = useConsoleDataProvider();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateAutomationSettingsRequest) => dataProvider.updateAutomationSettings(typeId, body),
    onSuccess: (saved) => {
      queryClient.setQueryData(automationKey(typeId, 'settings'), saved);
      // Quiet hours and the cap are shared: every type's settings and previews may change.
      void queryClient.invalidateQueries({ queryKey: ['automated-messages'] });
    },
  });
}

/** The preview is asked for by pressing 'Preview', not on every page view (it runs the trigger's query). */
export function useAutomationPreview(typeId: number, enabled: boolean) {
  const dataProvider = useConsoleDataProvider();
  return useQuery({ queryKey: automationKey(typeId, 'preview'), queryFn: () => dataProvider.getAutomationPreview(typeId), enabled, retry: false });
}

export function useAutomationCounts(typeId: number) {
  const dataProvider = useConsoleDataProvider();
  return useQuery({ queryKey: automationKey(typeId, 'counts'), queryFn: () => dataProvider.getAutomationCounts(typeId), retry: false });
}

export function useSendTest(typeId: number) {
  const dataProvider = useConsoleDataProvider();
  return useMutation({ mutationFn: () => dataProvider.sendAutomationTest(typeId, undefined) });
}

export function useSaveDeviceToken(typeId: number) {
  const dataProvider = useConsoleDataProvider();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string | null) => dataProvider.setStaffDeviceToken(token),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: automationKey(typeId, 'settings') }),
  });
}
