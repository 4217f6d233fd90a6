import { useState } from 'react';
import { Button, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { failureReason } from '../../messaging/failureReason';
import { useConsoleDataProvider } from '../../providers/dataProvider';
import type { ClientRecord } from '../clientsData';
import { clientSectionKey } from '../show/clientSections';
import { SYNC_INDICATOR_MS } from './actionRules';
import { SyncContractsDialog } from './SyncContractsDialog';
import { useTimedResult } from './useTimedResult';

/**
 * 'Sync Contracts' in the MindBody Contracts section: confirm, sync, then 'Sync Complete' or
 * 'Sync Failed' for 5 seconds and the section reloads.
 */
export const SyncContractsButton = ({ client }: { client: ClientRecord }) => {
  const translate = useTranslate();
  const t = (key: string) => translate(`client.sections.contracts.${key}`);
  const dataProvider = useConsoleDataProvider();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [reason, setReason] = useState<string | null>(null);
  const indicator = useTimedResult(SYNC_INDICATOR_MS);
  const sync = useMutation({
    mutationFn: () => dataProvider.syncClientContracts(client),
    onSuccess: (answer) => {
      const message = answer.errors.map((error) => error.message).join('; ');
      setReason(message || null);
      indicator.show(answer.errors.length === 0 ? 'success' : 'error');
    },
    onError: (error) => {
      setReason(failureReason(error, () => undefined));
      indicator.show('error');
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: clientSectionKey(client._id, 'contracts') }),
  });
  return (
    <>
      {indicator.outcome && (
        <Typography
          role="status"
          fontWeight="bold"
          variant="body2"
          color={indicator.outcome === 'success' ? 'success.main' : 'error'}
          title={indicator.outcome === 'error' ? (reason ?? undefined) : undefined}
        >
          {indicator.outcome === 'success' ? t('sync_complete') : t('sync_failed')}
        </Typography>
      )}
      <Button size="small" variant="outlined" loading={sync.isPending} onClick={() => setConfirming(true)}>
        {t('sync')}
      </Button>
      <SyncContractsDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          sync.mutate();
        }}
      />
    </>
  );
};
