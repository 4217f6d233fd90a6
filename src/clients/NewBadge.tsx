import { Chip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { isNewClient } from '../common/format';

/** The 'New' badge of the client list (first login within the last 30 days). */
export const NewBadge = ({ firstLogin, now = new Date() }: { firstLogin: string | null; now?: Date }) => {
  const translate = useTranslate();
  return isNewClient(firstLogin, now) ? <Chip label={translate('clients.new_badge')} color="success" size="small" /> : null;
};
