import { useTranslate } from 'react-admin';
import type { OptionVideo } from '@contract/clients';
import { AddFavoriteButton } from '../actions/AddFavoriteButton';
import { RemoveFavoriteButton } from '../actions/RemoveFavoriteButton';
import type { ClientRecord } from '../clientsData';
import { useCan } from '../../layout/useCan';
import { orUnknown, videoLength } from '../../common/format';
import { useClientSection } from './clientSections';
import { CollapsibleSection } from './CollapsibleSection';
import { EmptyText, SectionState } from '../../common/SectionState';
import { SimpleTable } from '../../common/SimpleTable';

export const FavoritesSection = ({ client }: { client: ClientRecord }) => {
  const translate = useTranslate();
  const query = useClientSection<OptionVideo>(client, 'favorites', (dp, c) => dp.getClientFavoriteVideos(c));
  const t = (key: string, options?: object) => translate(`client.sections.favorites.${key}`, options);
  const lengthTexts = { underAMinute: t('under_a_minute'), minutes: (count: number) => t('minutes', { count }) };
  // Favorites changes need 'clients.override': without it the list is read-only (no Add, no Remove column).
  const canChange = useCan('clients', 'favorites');
  return (
    <CollapsibleSection title={t('title')} actions={canChange ? <AddFavoriteButton client={client} favorites={query.data} /> : undefined}>
      <SectionState title={t('title')} query={query} empty={<EmptyText>{t('empty')}</EmptyText>}>
        {(videos) => (
          <SimpleTable
            headers={[...(canChange ? [t('columns.remove')] : []), t('columns.title'), t('columns.instructor'), t('columns.length')]}
            rows={videos}
            rowKey={(video, index) => video.vimeo_video_id ?? index}
            cells={(video) => [
              ...(canChange ? [<RemoveFavoriteButton key="remove" client={client} video={video} />] : []),
              video.title,
              orUnknown(video.instructor, ''),
              videoLength(video.duration, lengthTexts),
            ]}
          />
        )}
      </SectionState>
    </CollapsibleSection>
  );
};
