import { Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { RecentlyViewedVideo } from '@contract/clients';
import type { ClientRecord } from '../clientsData';
import { dateTime } from '../../common/format';
import { useClientSection } from './clientSections';
import { CollapsibleSection } from './CollapsibleSection';
import { EmptyText, SectionState } from '../../common/SectionState';
import { SimpleTable } from '../../common/SimpleTable';

const JOKES = [1, 2, 3] as const;

export const RecentVideosSection = ({ client }: { client: ClientRecord }) => {
  const translate = useTranslate();
  const query = useClientSection<RecentlyViewedVideo>(client, 'recent-videos', (dp, c) => dp.getClientRecentVideos(c));
  const t = (key: string) => translate(`client.sections.recent_videos.${key}`);
  const empty = (
    <>
      <EmptyText>{t('empty')}</EmptyText>
      {JOKES.map((n) => (
        <Typography key={n} variant="body2" color="text.secondary" sx={{ fontStyle: 'italic' }}>
          {t(`jokes.${n}`)}
        </Typography>
      ))}
    </>
  );
  return (
    <CollapsibleSection title={t('title')}>
      <SectionState title={t('title')} query={query} empty={empty}>
        {(videos) => (
          <SimpleTable
            headers={[t('columns.title'), t('columns.viewed_on')]}
            rows={videos}
            rowKey={(_video, index) => index}
            cells={(video) => [video.vimeo_video_title, dateTime(video.viewed_at)]}
          />
        )}
      </SectionState>
    </CollapsibleSection>
  );
};
