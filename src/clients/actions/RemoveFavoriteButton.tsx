import { Button } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { OptionVideo } from '../../../contract/clients';
import type { ClientRecord } from '../clientsData';

/**
 * The per-row Remove button of Favorites Videos. Extension point: the remove call and its
 * error toast come with issue 5; afterwards it invalidates clientSectionKey(client._id, 'favorites').
 */
export const RemoveFavoriteButton = (_props: { client: ClientRecord; video: OptionVideo }) => {
  const translate = useTranslate();
  return (
    <Button size="small" color="error">
      {translate('client.sections.favorites.remove')}
    </Button>
  );
};
