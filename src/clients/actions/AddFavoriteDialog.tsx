import { useState } from 'react';
import { Autocomplete, Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import type { OptionVideo } from '@contract/clients';
import { useConsoleDataProvider } from '../../providers/dataProvider';
import type { ClientRecord } from '../clientsData';
import { videoLength } from '../../common/format';
import { clientSectionKey } from '../show/clientSections';
import { ActionResult } from './ActionResult';
import { favoriteOptionLabel, favoriteOptions, MODAL_RESULT_MS, type FavoriteOption } from './actionRules';
import { useTimedResult } from './useTimedResult';

/** The spec's "Add a video to client's favorites list": the level's videos by category; Saved/Error for 2 s, then closes. */
export const AddFavoriteDialog = ({ client, favorites, open, onClose }: { client: ClientRecord; favorites: OptionVideo[]; open: boolean; onClose(): void }) => {
  const translate = useTranslate();
  const t = (key: string, options?: object) => translate(`client.favorites_modal.${key}`, options);
  const dataProvider = useConsoleDataProvider();
  const queryClient = useQueryClient();
  const [choice, setChoice] = useState<FavoriteOption | null>(null);
  const [showRequired, setShowRequired] = useState(false);
  const level = client.vod_access_level ?? 1;
  const groups = useQuery({ queryKey: ['video-options', level], queryFn: () => dataProvider.getVideoOptions(level), enabled: open });
  const options = favoriteOptions(groups.data ?? [], favorites);
  const lengthTexts = {
    underAMinute: translate('client.sections.favorites.under_a_minute'),
    minutes: (count: number) => translate('client.sections.favorites.minutes', { count }),
  };
  const label = (video: OptionVideo) =>
    favoriteOptionLabel(video, {
      coach: (instructor) => t('option_coach', { instructor }),
      length: (seconds) => videoLength(seconds, lengthTexts),
      join: (parts) => t('option', parts),
    });

  const close = () => {
    setChoice(null);
    setShowRequired(false);
    onClose();
  };
  const result = useTimedResult(MODAL_RESULT_MS, close);
  const add = useMutation({
    mutationFn: (video: OptionVideo) => dataProvider.updateClientFavorite(client, video.vimeo_video_id!, 'add'),
    onSuccess: (answer) => {
      result.show(answer.errors.length === 0 ? 'success' : 'error');
      void queryClient.invalidateQueries({ queryKey: clientSectionKey(client._id, 'favorites') });
    },
    onError: () => result.show('error'),
  });
  const save = () => {
    if (!choice) return setShowRequired(true);
    add.mutate(choice.video);
  };
  const busy = add.isPending || result.outcome !== null;

  return (
    <Dialog open={open} onClose={busy ? undefined : close} fullWidth maxWidth="sm" aria-labelledby="add-favorite-title">
      <DialogTitle id="add-favorite-title">{t('title')}</DialogTitle>
      <DialogContent sx={{ pt: '8px !important' }}>
        <Autocomplete
          options={options}
          groupBy={(option) => option.category}
          getOptionLabel={(option) => label(option.video)}
          getOptionDisabled={(option) => option.taken}
          isOptionEqualToValue={(option, value) => option.video.vimeo_video_id === value.video.vimeo_video_id}
          renderOption={({ key, ...props }, option) => (
            <li key={key} {...props}>
              {label(option.video)}
              {option.taken ? ` (${t('already_favorite')})` : ''}
            </li>
          )}
          value={choice}
          onChange={(_, value) => {
            setChoice(value);
            if (value) setShowRequired(false);
          }}
          loading={groups.isPending}
          noOptionsText={t('no_videos')}
          disabled={busy}
          renderInput={(params) => (
            <TextField {...params} label={t('video')} error={showRequired} helperText={showRequired ? t('choose_video') : undefined} autoFocus />
          )}
        />
      </DialogContent>
      <DialogActions>
        <ActionResult outcome={result.outcome} success={translate('client.results.saved')} error={translate('client.results.error')} />
        <Button onClick={close} disabled={busy}>
          {t('cancel')}
        </Button>
        <Button variant="contained" onClick={save} loading={add.isPending} disabled={result.outcome !== null}>
          {t('save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
