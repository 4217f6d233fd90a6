import { createElement } from 'react';
import { Button } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useAddUndoableMutation, useNotify, useTranslate } from 'react-admin';
import type { OptionVideo } from '@contract/clients';
import { UndoableActions } from '../../layout/Notification';
import { useConsoleDataProvider } from '../../providers/dataProvider';
import type { ClientRecord } from '../clientsData';
import { clientSectionKey } from '../show/clientSections';
import { FAVORITE_ERROR_TOAST_MS } from './actionRules';

/**
 * The per-row Remove button of Favorites Videos, undoable like the video switches (react-admin's
 * undoable pattern): the row leaves the list at once and the toast offers Undo; the call goes out
 * when the toast closes. A failure toasts 'Error removing favorites video' for 3 s, and
 * the favorite is back in the list.
 */
export const RemoveFavoriteButton = ({ client, video }: { client: ClientRecord; video: OptionVideo }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useConsoleDataProvider();
  const queryClient = useQueryClient();
  const addUndoableMutation = useAddUndoableMutation();
  const key = clientSectionKey(client._id, 'favorites');

  const remove = () => {
    const isThis = (favorite: OptionVideo) => favorite.vimeo_video_id === video.vimeo_video_id;
    queryClient.setQueryData<OptionVideo[]>(key, (favorites) => favorites?.filter((favorite) => !isThis(favorite)));
    addUndoableMutation(async ({ isUndo }) => {
      if (!isUndo) {
        try {
          const answer = await dataProvider.updateClientFavorite(client, video.vimeo_video_id ?? '', 'remove');
          if (answer.errors.length > 0) throw new Error(answer.errors.map((error) => error.message).join(' '));
        } catch {
          notify('client.sections.favorites.remove_error', { type: 'error', autoHideDuration: FAVORITE_ERROR_TOAST_MS });
        }
      }
      // Undone, refused or done: the list shows what the server holds.
      await queryClient.invalidateQueries({ queryKey: key });
    });
    notify('client.sections.favorites.removed', {
      type: 'info',
      undoable: true,
      messageArgs: { title: video.title },
      action: createElement(UndoableActions),
    });
  };

  return (
    <Button size="small" color="error" aria-label={`${translate('client.sections.favorites.remove')} ${video.title}`} onClick={remove}>
      {translate('client.sections.favorites.remove')}
    </Button>
  );
};
