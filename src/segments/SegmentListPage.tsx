import { Box, CircularProgress } from '@mui/material';
import { useParams } from 'react-router-dom';
import { useGetOne, useTranslate } from 'react-admin';
import ClientListPage from '../clients/ClientListPage';
import { BroadcastButton } from '../broadcasts';
import { DeleteSegmentButton } from './DeleteSegmentButton';
import { LoadError } from '../common/LoadError';
import type { SegmentRecord } from './segmentsData';
import { SEGMENTS_RESOURCE } from './segmentsData';

/** A saved segment as a client list (docs/features.md#segments): the all-clients list with its filter fixed. */
const SegmentListPage = () => {
  const translate = useTranslate();
  const id = Number(useParams().id);
  const { data: segment, error, isPending } = useGetOne<SegmentRecord>(SEGMENTS_RESOURCE, { id }, { enabled: Number.isInteger(id) && id > 0 });
  if (error) return <LoadError error={error} />;
  if (isPending || !segment) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
        <CircularProgress aria-label={translate('clients.loading')} />
      </Box>
    );
  }
  return (
    <ClientListPage
      key={segment.id}
      listId={1}
      segment={{ id: segment.id, name: segment.name, filter: segment.filter }}
      headerActions={
        <>
          <DeleteSegmentButton segment={segment} />
          <BroadcastButton target={{ segment_id: segment.id }} recipients={segment.count} estimate={segment.count_is_estimate} />
        </>
      }
    />
  );
};

export default SegmentListPage;
