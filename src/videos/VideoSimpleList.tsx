import { Box } from '@mui/material';
import { SimpleList, useTranslate } from 'react-admin';
import type { AdminVideo } from '@contract/videos';
import { VideoThumbnail } from './VideoTitleCell';

/**
 * The Video Manager on a phone (react-admin demo's SimpleList): thumbnail, title, level and state;
 * a tap (or Enter) opens the edit page, where the switch and the level are set.
 */
export const VideoSimpleList = () => {
  const translate = useTranslate();
  return (
    <SimpleList<AdminVideo>
      rowClick="edit"
      leftIcon={() => <VideoThumbnail width={72} />}
      primaryText={(video) => video.title}
      secondaryText={(video) =>
        [
          translate(`videos.access_levels.${video.access_level_id}`),
          translate(video.enabled ? 'videos.filters.enabled_choices.yes' : 'videos.filters.enabled_choices.no'),
          video.vimeo_missing_since ? translate('videos.flags.gone') : null,
          video.deleted_at ? translate('videos.phone.deleted') : null,
        ]
          .filter(Boolean)
          .join(' · ')
      }
      empty={<Box sx={{ p: 2 }}>{translate('videos.empty')}</Box>}
      sx={{ '& .MuiListItemIcon-root': { mr: 1.5 }, '& .MuiListItemText-primary': { fontWeight: 500 } }}
    />
  );
};
