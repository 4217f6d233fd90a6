import { useState } from 'react';
import { Button, Menu, MenuItem } from '@mui/material';
import DownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import { useMutation } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import { useConsoleDataProvider } from '../../providers/dataProvider';
import type { ExportFormat } from './dataRightsData';

/** Saves a Blob under its name, as a download. */
function saveFile(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Export data: everything held about the client, as one JSON file or a zip of CSVs. */
export const ExportDataButton = ({ clientId }: { clientId: number }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useConsoleDataProvider();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const { mutate, isPending } = useMutation({
    mutationFn: (format: ExportFormat) => dataProvider.exportClientData(clientId, format),
    onSuccess: ({ blob, filename }) => {
      saveFile(blob, filename);
      notify('data_rights.export.started', { type: 'info' });
    },
    onError: (error: Error) => notify('data_rights.export.failed', { type: 'error', messageArgs: { reason: error.message } }),
  });
  const choose = (format: ExportFormat) => {
    setAnchor(null);
    mutate(format);
  };
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<DownloadIcon />}
        disabled={isPending}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? 'export-data-menu' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {translate('data_rights.export.button')}
      </Button>
      <Menu id="export-data-menu" anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => choose('json')}>{translate('data_rights.export.json')}</MenuItem>
        <MenuItem onClick={() => choose('zip')}>{translate('data_rights.export.zip')}</MenuItem>
      </Menu>
    </>
  );
};
