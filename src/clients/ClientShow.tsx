import { Box, CircularProgress, Stack } from '@mui/material';
import { ShowBase, useShowContext, useTranslate } from 'react-admin';
import { useParams } from 'react-router-dom';
import { PageHeader } from '../layout/PageHeader';
import { useCan } from '../layout/useCan';
import { PushNotificationButton } from './actions/PushNotificationButton';
import { UpdateAccessLevelButton } from './actions/UpdateAccessLevelButton';
import { CLIENT_RESOURCE, type ClientRecord } from './clientsData';
import { LoadError } from '../common/LoadError';
import { AutomatedMessagesSection } from './show/AutomatedMessagesSection';
import { BackButton } from './show/BackButton';
import { ClientSummary } from './show/ClientSummary';
import { ContractsSection } from './show/ContractsSection';
import { DebugInfoSection } from './show/DebugInfoSection';
import { FavoritesSection } from './show/FavoritesSection';
import { HistorySection } from './show/HistorySection';
import { PurchasesSection } from './show/PurchasesSection';
import { PushesSection } from './show/PushesSection';
import { RecentVideosSection } from './show/RecentVideosSection';
import { TimelineSection } from './show/TimelineSection';
import { NotesSection } from './show/NotesSection';
import { ClientGlance } from './show/ClientGlance';
import { ClientDataActions } from './dataRights/ClientDataActions';
import { ClientErasureBanner } from './dataRights/ClientErasureBanner';
import { ClientLooksSection } from './dataRights/ClientLooksSection';
import { useErasure } from './dataRights/useErasure';

const ClientDetails = () => {
  const translate = useTranslate();
  const { record, isPending, error } = useShowContext<ClientRecord>();
  // What the role may do here (docs/security.md): the rest is not shown.
  const can = { push: useCan('clients', 'push'), override: useCan('clients', 'override'), notes: useCan('clients', 'notes'), history: useCan('audit', 'list') };
  // An erased client can be neither reached nor changed: only the page's record of the erasure remains.
  const dataRights = { manage: useCan('clients', 'erase'), looks: useCan('clients', 'looks'), erased: Boolean(useErasure(record?._id).data) };
  const header = (client?: ClientRecord) => (
    <PageHeader
      title={translate('client.title')}
      start={<BackButton />}
      actions={
        client && (
          <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap">
            {can.push && !dataRights.erased && <PushNotificationButton client={client} />}
            {can.override && !dataRights.erased && <UpdateAccessLevelButton client={client} />}
            {dataRights.manage && <ClientDataActions client={client} />}
          </Stack>
        )
      }
    />
  );
  // A refetch that failed (the server away for a while) keeps the page and what is typed in it.
  const failed = error && !record;
  // The header is one element in every state: the record arriving must not redraw (and unfocus) Back.
  return (
    <>
      {header(failed ? undefined : record)}
      {failed ? (
        <LoadError error={error} />
      ) : isPending || !record ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
          <CircularProgress aria-label={translate('client.loading')} />
        </Box>
      ) : (
        // Keyed by client: another id starts with its sections closed and loads its own data.
        <Box key={record._id}>
          <ClientErasureBanner client={record} />
          <ClientGlance client={record} />
          <ClientSummary client={record} canOverride={can.override} />
          <NotesSection client={record} canWrite={can.notes} />
          <TimelineSection client={record} />
          <ContractsSection client={record} />
          <RecentVideosSection client={record} />
          <FavoritesSection client={record} />
          <PurchasesSection client={record} />
          <PushesSection client={record} />
          <AutomatedMessagesSection client={record} />
          <DebugInfoSection client={record} />
          {can.history && <HistorySection client={record} />}
          {dataRights.looks && <ClientLooksSection client={record} />}
        </Box>
      )}
    </>
  );
};

/** The spec's 'Client details' at /client/{id}; everything reloads when the id in the route changes. */
const ClientShow = () => {
  const { id } = useParams();
  return (
    <ShowBase resource={CLIENT_RESOURCE} id={id} redirectOnError={false} queryOptions={{ retry: false }}>
      <ClientDetails />
    </ShowBase>
  );
};

export default ClientShow;
