import { useState } from 'react';
import { Button } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ClientRecord } from '../clientsData';
import { UpdateAccessLevelDialog } from './UpdateAccessLevelDialog';

/** Header button 'Update VOD Access Level'. */
export const UpdateAccessLevelButton = ({ client }: { client: ClientRecord }) => {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="contained" onClick={() => setOpen(true)}>
        {translate('client.actions.update_level')}
      </Button>
      {open && <UpdateAccessLevelDialog client={client} open={open} onClose={() => setOpen(false)} />}
    </>
  );
};
