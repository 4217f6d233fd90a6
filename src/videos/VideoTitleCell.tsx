import { Box, Chip, Tooltip } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import type { AdminVideo } from '@contract/videos';
import { formatSyncDate } from './syncProgress';

/** The Video Title column, flagged when the last complete sync no longer found the video on Vimeo. */
export const VideoTitleCell = () => {
  const record = useRecordContext<AdminVideo>();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
      <span>{record.title}</span>
      {record.vimeo_missing_since && (
        <Tooltip title={translate('videos.flags.gone_hint', { date: formatSyncDate(record.vimeo_missing_since) })}>
          <Chip size="small" color="warning" variant="outlined" label={translate('videos.flags.gone')} />
        </Tooltip>
      )}
    </Box>
  );
};

/** The Video Thumbnail column: 150 px wide. */
export const VideoThumbnail = ({ width = 150 }: { width?: number }) => {
  const record = useRecordContext<AdminVideo>();
  if (!record) return null;
  const frame = { display: 'block', width, aspectRatio: '16 / 9', borderRadius: 1, bgcolor: 'action.hover' } as const;
  return record.thumbnail_url ? (
    <Box component="img" src={record.thumbnail_url} alt="" loading="lazy" width={width} sx={{ ...frame, objectFit: 'cover' }} />
  ) : (
    <Box sx={frame} />
  );
};
