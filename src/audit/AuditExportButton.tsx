import DownloadIcon from '@mui/icons-material/GetApp';
import { useMutation } from '@tanstack/react-query';
import { Button, downloadCSV, useListContext, useNotify } from 'react-admin';
import { useConsoleDataProvider } from '../providers/dataProvider';

/** The whole filtered log as CSV, built by the server (react-admin's Export would stop at one page). */
export const AuditExportButton = () => {
  const dataProvider = useConsoleDataProvider();
  const { filterValues } = useListContext();
  const notify = useNotify();
  const { mutate, isPending } = useMutation({
    mutationFn: () => dataProvider.exportAuditCsv(filterValues),
    onSuccess: (csv) => downloadCSV(csv, `audit-log-${new Date().toISOString().slice(0, 10)}`),
    onError: (error: Error) => notify('audit.export_failed', { type: 'error', messageArgs: { reason: error.message } }),
  });
  return (
    <Button label="audit.export" onClick={() => mutate()} disabled={isPending}>
      <DownloadIcon />
    </Button>
  );
};
