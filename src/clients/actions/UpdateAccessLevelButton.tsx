import { Button } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ClientRecord } from '../clientsData';

/**
 * Header button 'Update VOD Access Level'. Extension point: the level modal (spec §2 'Update
 * Client VOD Access Level') and its call come with issue 5.
 */
export const UpdateAccessLevelButton = (_props: { client: ClientRecord }) => {
  const translate = useTranslate();
  return <Button variant="contained">{translate('client.actions.update_level')}</Button>;
};
