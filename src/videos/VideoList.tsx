import { Box } from '@mui/material';
import { DataTable, FilterButton, List, TopToolbar, useTranslate } from 'react-admin';
import type { AdminVideo } from '../../contract/videos';
import { PageHeader } from '../layout/PageHeader';
import { AccessLevelSelect } from './AccessLevelSelect';
import { EnabledSwitch } from './EnabledSwitch';
import { videoFilters } from './videoFilters';
import { VideoRowActions } from './VideoRowActions';
import { VideoThumbnail, VideoTitleCell } from './VideoTitleCell';
import { VimeoSyncStatus } from './VimeoSyncStatus';

const Column = DataTable.Col<AdminVideo>;

/** Video Manager (spec §2): paged, sorted and filtered on the server; every control saves at once. */
const VideoList = () => {
  const translate = useTranslate();
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
        <DataTable bulkActionButtons={false} rowClick={false} empty={<EmptyVideos />}>
          <Column label="videos.columns.thumbnail" disableSort field={VideoThumbnail} />
          <Column source="title" label="videos.columns.title" field={VideoTitleCell} />
          <Column source="enabled" label="videos.columns.enabled" field={EnabledSwitch} />
          <Column source="access_level_id" label="videos.columns.access_level" field={AccessLevelSelect} />
          <Column label="videos.columns.actions" disableSort field={VideoRowActions} />
        </DataTable>
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

const EmptyVideos = () => {
  const translate = useTranslate();
  return <p style={{ padding: 16 }}>{translate('videos.empty')}</p>;
};

export default VideoList;
