import { useState } from 'react';
import { Button } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ClientRecord } from '../clientsData';
import { PushNotificationDialog } from './PushNotificationDialog';

/** Header button 'Send a push notification to client'. The dialog stays mounted so a failed message is kept. */
export const PushNotificationButton = ({ client, compact = false }: { client: ClientRecord; compact?: boolean }) => {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  return (
    <>
      {/* compact: a list row's one-tap push (the at-risk list), named for the client it reaches */}
      <Button
        variant={compact ? 'outlined' : 'contained'}
        size={compact ? 'small' : 'medium'}
        onClick={() => setOpen(true)}
        aria-label={compact ? translate('segments.at_risk.push_to', { name: [client.first_name, client.last_name].filter(Boolean).join(' ') }) : undefined}
      >
        {translate(compact ? 'segments.at_risk.push' : 'client.actions.push')}
      </Button>
      <PushNotificationDialog client={client} open={open} onClose={() => setOpen(false)} />
    </>
  );
};
