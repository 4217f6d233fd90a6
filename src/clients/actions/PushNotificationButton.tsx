import { useState } from 'react';
import { Button } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ClientRecord } from '../clientsData';
import { PushNotificationDialog } from './PushNotificationDialog';

/** Header button 'Send a push notification to client'. The dialog stays mounted so a failed message is kept. */
export const PushNotificationButton = ({ client }: { client: ClientRecord }) => {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="contained" onClick={() => setOpen(true)}>
        {translate('client.actions.push')}
      </Button>
      <PushNotificationDialog client={client} open={open} onClose={() => setOpen(false)} />
    </>
  );
};
