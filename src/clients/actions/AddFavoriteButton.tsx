import { useState } from 'react';
import { Button } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { OptionVideo } from '@contract/clients';
import type { ClientRecord } from '../clientsData';
import { AddFavoriteDialog } from './AddFavoriteDialog';

/** 'Add a Video' in the Favorites Videos section. */
export const AddFavoriteButton = ({ client, favorites = [] }: { client: ClientRecord; favorites?: OptionVideo[] }) => {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" variant="outlined" onClick={() => setOpen(true)}>
        {translate('client.sections.favorites.add')}
      </Button>
      {open && <AddFavoriteDialog client={client} favorites={favorites} open={open} onClose={() => setOpen(false)} />}
    </>
  );
};
