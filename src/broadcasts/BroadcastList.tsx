import { useState } from 'react';
import { Box, Button, Stack, Typography, useMediaQuery, type Theme } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { DataTable, List, SimpleList, useNotify, useRefresh, useTranslate } from 'react-admin';
import type { Broadcast } from '@contract/broadcasts';
import { dateTime } from '../common/format';
import { PageHeader } from '../layout/PageHeader';
import { useCan } from '../layout/useCan';
import { failureReason } from '../messaging/failureReason';
import { useConsoleDataProvider } from '../providers/dataProvider';
import { BROADCASTS_RESOURCE } from './broadcastsData';
import { BroadcastDialog } from './BroadcastDialog';
import { BroadcastOutcomeCell } from './BroadcastOutcomeCell';
import { countsParts } from './countsParts';

/** 'sent 3 · failed 1 (app removed 1) · skipped 2 (opted out 1, no device 1) · retrying 4 · pending 0'; a cancelled one: '… · not sent 527' */
export const useCountsText = () => {
  const translate = useTranslate();
  return (broadcast: Broadcast) =>
    countsParts(broadcast)
      .map(({ key, n, reasons }) => {
        const why = reasons.map(([reason, count]) => `${translate(`broadcasts.reasons.${reason}`, { _: reason })} ${count}`);
        return translate(`broadcasts.counts.${key}`, { n }) + (why.length ? ` (${why.join(', ')})` : '');
      })
      .join(' · ');
};

/** Cancel a draft, scheduled or sending broadcast; edit a draft, or send it now. */
const BroadcastActions = ({ broadcast }: { broadcast: Broadcast | undefined }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  const dataProvider = useConsoleDataProvider();
  const canSend = useCan('broadcasts', 'cancel');
  const [editing, setEditing] = useState(false);
  const act = useMutation({
    mutationFn: (what: 'cancel' | 'send') =>
      what === 'cancel' ? dataProvider.cancelBroadcast(broadcast!.id) : dataProvider.sendBroadcastDraft(broadcast!.id, undefined),
    onSuccess: () => {
      refresh();
      void queryClient.invalidateQueries({ queryKey: ['broadcasts'] });
    },
    onError: (error) =>
      notify(
        failureReason(error, () => undefined),
        { type: 'error' },
      ),
  });
  if (!broadcast || !canSend || !['draft', 'scheduled', 'sending'].includes(broadcast.status)) return null;
  const label = (key: string) => `${translate(`broadcasts.${key}`)}: ${broadcast.title || broadcast.body.slice(0, 40)}`;
  return (
    <Stack direction="row" spacing={1} onClick={(event) => event.stopPropagation()}>
      {broadcast.status === 'draft' && (
        <>
          <Button size="small" onClick={() => setEditing(true)} aria-label={label('edit_draft')}>
            {translate('broadcasts.edit_draft')}
          </Button>
          <Button size="small" variant="outlined" onClick={() => act.mutate('send')} loading={act.isPending} aria-label={label('send_draft')}>
            {translate('broadcasts.send_draft')}
          </Button>
          {editing && (
            <BroadcastDialog
              draft={broadcast}
              recipients={broadcast.recipients}
              open
              onClose={() => {
                setEditing(false);
                refresh();
              }}
            />
          )}
        </>
      )}
      <Button size="small" color="error" onClick={() => act.mutate('cancel')} loading={act.isPending} aria-label={label('cancel')}>
        {translate('broadcasts.cancel')}
      </Button>
    </Stack>
  );
};

/** The Broadcasts history (docs/automation.md#broadcasts): newest first, refreshed while any is sending. */
const BroadcastList = () => {
  const translate = useTranslate();
  const countsText = useCountsText();
  const isSmall = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  const status = (record: Broadcast) =>
    translate(`broadcasts.statuses.${record.status}`) + (record.send_at && record.status === 'scheduled' ? ` ${dateTime(record.send_at)}` : '');
  return (
    <>
      <PageHeader title={translate('broadcasts.title')} />
      <List
        resource={BROADCASTS_RESOURCE}
        title={false}
        actions={false}
        perPage={25}
        sort={{ field: 'created_at', order: 'DESC' }}
        queryOptions={{ refetchInterval: 3000 }}
        empty={<Typography sx={{ p: 2 }}>{translate('broadcasts.empty')}</Typography>}
      >
        {isSmall ? (
          <SimpleList<Broadcast>
            linkType={false}
            primaryText={(record) => record.title || record.body}
            secondaryText={(record) => (
              <Box component="span" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
                {`${status(record)} · ${record.recipients_estimate ? '~' : ''}${translate('broadcasts.recipients', { smart_count: record.recipients })} · ${countsText(record)}`}
                <BroadcastOutcomeCell broadcast={record} />
              </Box>
            )}
            tertiaryText={(record) => <BroadcastActions broadcast={record} />}
          />
        ) : (
          <DataTable<Broadcast> bulkActionButtons={false} rowClick={false}>
            <DataTable.Col disableSort source="created_at" label={translate('broadcasts.columns.created')} render={(record) => dateTime(record.created_at)} />
            <DataTable.Col
              disableSort
              source="title"
              label={translate('broadcasts.columns.message')}
              render={(record) => (
                <>
                  <strong>{record.title}</strong> {record.body}
                </>
              )}
            />
            <DataTable.Col
              disableSort
              source="kind"
              label={translate('broadcasts.columns.kind')}
              render={(record) => translate(`broadcasts.kinds.${record.kind}`)}
            />
            <DataTable.Col disableSort source="status" label={translate('broadcasts.columns.status')} render={status} />
            <DataTable.Col
              disableSort
              source="recipients"
              label={translate('broadcasts.columns.recipients')}
              render={(record) => `${record.recipients_estimate ? '~' : ''}${record.recipients.toLocaleString()}`}
            />
            <DataTable.Col
              disableSort
              source="counts"
              label={translate('broadcasts.columns.results')}
              render={(record) => (
                <>
                  {countsText(record as Broadcast)}
                  <BroadcastOutcomeCell broadcast={record as Broadcast} />
                </>
              )}
            />
            <DataTable.Col
              disableSort
              source="id"
              label={translate('broadcasts.columns.actions')}
              render={(record) => <BroadcastActions broadcast={record as Broadcast} />}
            />
          </DataTable>
        )}
      </List>
    </>
  );
};

export default BroadcastList;
