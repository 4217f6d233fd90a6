import { Box, Chip, Stack, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import type { AdminVideo } from '@contract/videos';
import { VideoThumbnail } from './VideoTitleCell';

/** What Vimeo says about the video: read-only here, a sync keeps it up to date. */
export const VideoVimeoSummary = () => {
  const record = useRecordContext<AdminVideo>();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
      <VideoThumbnail width={240} />
      <Box>
        <Typography variant="overline" component="h2">
          {translate('videos.edit.vimeo.heading')}
        </Typography>
        <Typography variant="body2">
          {translate('videos.edit.vimeo.id')}: {record.vimeo_video_id ?? translate('videos.edit.vimeo.none')}
        </Typography>
        <Typography variant="body2">
          {translate('videos.edit.vimeo.length')}: {translate('videos.edit.vimeo.minutes', { minutes: Math.floor(record.duration / 60) })}
        </Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: 0.5 }}>
          <Typography variant="body2">{translate('videos.edit.vimeo.tags')}:</Typography>
          {record.tags.length ? (
            record.tags.map((tag) => <Chip key={tag} size="small" label={tag} />)
          ) : (
            <Typography variant="body2">{translate('videos.edit.vimeo.none')}</Typography>
          )}
        </Box>
        {record.vimeo_missing_since && <Chip sx={{ mt: 1 }} size="small" color="warning" variant="outlined" label={translate('videos.flags.gone')} />}
        {record.title_edited && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {translate('videos.edit.title_edited')}
          </Typography>
        )}
      </Box>
    </Stack>
  );
};
