import { Button } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ClientRecord } from '../clientsData';

/**
 * 'Add a Video' in the Favorites Videos section. Extension point: the modal (videos from
 * dataProvider.getVideoOptions, grouped by category) and the add call come with issue 5; after
 * saving it invalidates clientSectionKey(client._id, 'favorites').
 */
export const AddFavoriteButton = (_props: { client: ClientRecord }) => {
  const translate = useTranslate();
  return (
    <Button size="small" variant="outlined">
      {translate('client.sections.favorites.add')}
    </Button>
  );
};
