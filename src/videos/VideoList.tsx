import { Box } from '@mui/material';
import { DataTable, FilterButton, List, TopToolbar, useRecordContext, useTranslate } from 'react-admin';
import type { AdminVideo } from '@contract/videos';
import { dateTime } from '../common/format';
import { PageHeader } from '../layout/PageHeader';
import { useIsPhone } from '../layout/useIsPhone';
import { AccessLevelSelect } from './AccessLevelSelect';
import { EnabledSwitch } from './EnabledSwitch';
import { videoFilters } from './videoFilters';
import { VideoRowActions } from './VideoRowActions';
import { VideoThumbnail, VideoTitleCell } from './VideoTitleCell';
import { VimeoSyncStatus } from './VimeoSyncStatus';
import { VideoSimpleList } from './VideoSimpleList';

const Column = DataTable.Col<AdminVideo>;

/**
 * Video Manager: paged, sorted and filtered on the server; every control saves at once.
 * On a phone a card list (no sideways scrolling), each card opening the video's edit page.
 */
const VideoList = () => {
  const translate = useTranslate();
  const isPhone = useIsPhone();
  return (
    <Box>
      <PageHeader title={translate('videos.title')} />
      <VimeoSyncStatus />
      <List
        resource="videos"
        title={false}
        filters={videoFilters(translate)}
        actions={<ListActions />}
        sort={{ field: 'title', order: 'ASC' }}
        perPage={25}
        empty={false}
        sx={{ '& .RaList-main': { minWidth: 0 }, '& .RaList-content': { overflowX: 'auto' } }}
      >
        {isPhone ? (
          <VideoSimpleList />
        ) : (
          <DataTable bulkActionButtons={false} rowClick={false} empty={<EmptyVideos />}>
            <Column label="videos.columns.thumbnail" disableSort field={VideoThumbnail} />
            <Column source="title" label="videos.columns.title" field={VideoTitleCell} />
            <Column source="enabled" label="videos.columns.enabled" field={EnabledSwitch} />
            <Column source="access_level_id" label="videos.columns.access_level" field={AccessLevelSelect} />
            <Column source="plays_30d" label="videos.columns.plays_30d" align="right" />
            <Column source="viewers_30d" label="videos.columns.viewers_30d" align="right" />
            <Column source="favorites" label="videos.columns.favorites" align="right" />
            <Column source="last_played_at" label="videos.columns.last_played_at" field={LastPlayedCell} />
            <Column label="videos.columns.actions" disableSort field={VideoRowActions} />
          </DataTable>
        )}
      </List>
    </Box>
  );
};

// No Export: a CSV of the library is not something staff asked for.
const ListActions = () => (
  <TopToolbar>
    <FilterButton />
  </TopToolbar>
);

const LastPlayedCell = () => {
  const record = useRecordContext<AdminVideo>();
  const translate = useTranslate();
  if (!record) return null;
  return <>{record.last_played_at ? dateTime(record.last_played_at) : translate('videos.never_played')}</>;
};

const EmptyVideos = () => {
  const translate = useTranslate();
  return <p style={{ padding: 16 }}>{translate('videos.empty')}</p>;
};

export default VideoList;
