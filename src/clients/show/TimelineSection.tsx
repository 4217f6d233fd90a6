import { useState } from 'react';
import { Box, Button, Chip, List, ListItem, Paper, Stack, Typography } from '@mui/material';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { TIMELINE_KINDS, type TimelineEntry, type TimelineKind } from '@contract/timeline';
import { useConsoleDataProvider } from '../../providers/dataProvider';
import type { ClientRecord } from '../clientsData';
import { dateTime } from '../../common/format';
import { EmptyText, SectionError, SectionLoading } from '../../common/SectionState';

/** TanStack Query key of the client's timeline; actions invalidate ['clients', id] (all of the client's sections). */
export const timelineKey = (clientId: number, kinds: readonly TimelineKind[]) => ['clients', clientId, 'timeline', kinds.join(',')] as const;

const EntryRow = ({ entry }: { entry: TimelineEntry }) => {
  const translate = useTranslate();
  return (
    <ListItem divider sx={{ display: 'block', px: 0 }} data-kind={entry.kind} data-event={entry.event}>
      <Typography variant="body2" color="text.secondary" component="div">
        <time dateTime={entry.at}>{dateTime(entry.at)}</time>
        {entry.by && ` · ${translate('client.timeline.by', { who: entry.by })}`}
      </Typography>
      <Typography component="div" sx={{ overflowWrap: 'anywhere' }}>
        <strong>{translate(`client.timeline.events.${entry.event}`, { _: entry.event })}</strong>
        {entry.title && `: ${entry.title}`}
        {entry.until && ` ${translate('client.timeline.until', { date: dateTime(entry.until) })}`}
      </Typography>
      {entry.detail && (
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
          {entry.detail}
        </Typography>
      )}
    </ListItem>
  );
};

/**
 * Everything that happened to the client, newest first, one page at a time;
 * chips keep only some kinds (none chosen: all).
 */
export const TimelineSection = ({ client }: { client: ClientRecord }) => {
  const translate = useTranslate();
  const t = (key: string, options?: object) => translate(`client.timeline.${key}`, options);
  const dataProvider = useConsoleDataProvider();
  const [kinds, setKinds] = useState<TimelineKind[]>([]);
  const query = useInfiniteQuery({
    queryKey: timelineKey(client._id, kinds),
    queryFn: ({ pageParam }) => dataProvider.getClientTimeline(client._id, { kinds, before: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next,
    retry: false,
  });
  const toggle = (kind: TimelineKind) =>
    setKinds((chosen) => (chosen.includes(kind) ? chosen.filter((k) => k !== kind) : TIMELINE_KINDS.filter((k) => k === kind || chosen.includes(k))));
  const entries = query.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <Paper component="section" aria-labelledby="timeline-title" variant="outlined" sx={{ mb: 2, p: 2 }}>
      <Typography id="timeline-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('title')}
      </Typography>
      <Stack direction="row" useFlexGap flexWrap="wrap" gap={1} role="group" aria-label={t('filter')} sx={{ mb: 1 }}>
        {TIMELINE_KINDS.map((kind) => (
          <Chip
            key={kind}
            label={t(`kinds.${kind}`)}
            size="small"
            color={kinds.includes(kind) ? 'primary' : 'default'}
            variant={kinds.includes(kind) ? 'filled' : 'outlined'}
            aria-pressed={kinds.includes(kind)}
            onClick={() => toggle(kind)}
          />
        ))}
      </Stack>
      {query.isPending ? (
        <SectionLoading />
      ) : query.isError && entries.length === 0 ? (
        <SectionError title={t('title')} error={query.error} onRetry={() => void query.refetch()} />
      ) : entries.length === 0 ? (
        <EmptyText>{t('empty')}</EmptyText>
      ) : (
        <List dense aria-label={t('title')}>
          {entries.map((entry) => (
            <EntryRow key={entry.id} entry={entry} />
          ))}
        </List>
      )}
      {query.isFetchNextPageError && <SectionError title={t('title')} error={query.error} onRetry={() => void query.fetchNextPage()} />}
      {query.hasNextPage && !query.isFetchNextPageError && (
        <Box sx={{ display: 'flex', justifyContent: 'center', mt: 1 }}>
          <Button variant="outlined" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
            {t('load_more')}
          </Button>
        </Box>
      )}
    </Paper>
  );
};
