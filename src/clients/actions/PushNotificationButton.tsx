import { Button } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ClientRecord } from '../clientsData';

/**
 * Header button 'Send a push notification to client'. Extension point: the push modal
 * (spec §2 'Push Notification Directly to Client') and its call come with issue 5.
 */
export const PushNotificationButton = (_props: { client: ClientRecord }) => {
  const translate = useTranslate();
  return <Button variant="contained">{translate('client.actions.push')}</Button>;
};
