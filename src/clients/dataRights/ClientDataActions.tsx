import { useState } from 'react';
import { Button } from '@mui/material';
import DeleteForeverIcon from '@mui/icons-material/DeleteForeverOutlined';
import { useTranslate } from 'react-admin';
import type { ClientRecord } from '../clientsData';
import { EraseClientDialog } from './EraseClientDialog';
import { ExportDataButton } from './ExportDataButton';
import { useErasure } from './useErasure';

/** The client page's Export data and Erase client (clients.erase); an erased client has nothing left for either. */
export const ClientDataActions = ({ client }: { client: ClientRecord }) => {
  const translate = useTranslate();
  const erasure = useErasure(client._id);
  const [open, setOpen] = useState(false);
  if (erasure.isPending || erasure.data) return null;
  return (
    <>
      <ExportDataButton clientId={client._id} />
      <Button variant="outlined" color="error" startIcon={<DeleteForeverIcon />} onClick={() => setOpen(true)}>
        {translate('data_rights.erase.button')}
      </Button>
      {open && <EraseClientDialog client={client} open={open} onClose={() => setOpen(false)} />}
    </>
  );
};
