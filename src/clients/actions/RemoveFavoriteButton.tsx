import { Button } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import type { OptionVideo } from '../../../contract/clients';
import { useConsoleDataProvider } from '../../providers/dataProvider';
import type { ClientRecord } from '../clientsData';
import { clientSectionKey } from '../show/clientSections';
import { FAVORITE_ERROR_TOAST_MS } from './actionRules';

/** The per-row Remove button of Favorites Videos; spec §8: a failure toasts 'Error removing favorites video' for 3 s. */
export const RemoveFavoriteButton = ({ client, video }: { client: ClientRecord; video: OptionVideo }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useConsoleDataProvider();
  const queryClient = useQueryClient();
  const failed = () => notify('client.sections.favorites.remove_error', { type: 'error', autoHideDuration: FAVORITE_ERROR_TOAST_MS });
  const remove = useMutation({
    mutationFn: () => dataProvider.updateClientFavorite(client, video.vimeo_video_id ?? '', 'remove'),
    onSuccess: (answer) => {
      if (answer.errors.length > 0) return failed();
      void queryClient.invalidateQueries({ queryKey: clientSectionKey(client._id, 'favorites') });
    },
    onError: failed,
  });
  return (
    <Button
      size="small"
      color="error"
      loading={remove.isPending}
      aria-label={`${translate('client.sections.favorites.remove')} ${video.title}`}
      onClick={() => remove.mutate()}
    >
      {translate('client.sections.favorites.remove')}
    </Button>
  );
};
