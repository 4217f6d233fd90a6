import { Box, Button, Chip, Paper, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useDelete, useGetList, useLogout, useNotify, useTranslate } from 'react-admin';
import type { StaffSession } from '../../contract/sessions';
import { SESSIONS_RESOURCE } from '../audit/auditData';
import { LoadError } from '../clients/LoadError';
import { dateTime } from '../clients/format';
import { PageHeader } from '../layout/PageHeader';
import { useConsoleDataProvider } from '../providers/dataProvider';
import { describeUserAgent } from './userAgent';

/** 'My sessions' (issue 11, ASVS 7.4): every browser the staff member is signed in on, each one endable. */
const SessionList = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const logout = useLogout();
  const dataProvider = useConsoleDataProvider();
  const { data = [], isPending, error, refetch } = useGetList<StaffSession & { id: string }>(SESSIONS_RESOURCE, {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'last_seen_at', order: 'DESC' },
  });
  const [remove, { isPending: ending }] = useDelete();
  const endOthers = useMutation({
    mutationFn: () => dataProvider.endOtherSessions(),
    onSuccess: (ended) => {
      notify(ended ? 'sessions.others_ended' : 'sessions.none_other', { messageArgs: { smart_count: ended } });
      void refetch();
    },
    onError: (failure: Error) => notify(failure.message, { type: 'error' }),
  });

  const end = (session: StaffSession & { id: string }) =>
    remove(
      SESSIONS_RESOURCE,
      { id: session.id, previousData: session },
      {
        onSuccess: () => {
          // The server already cleared this browser's cookie; logout shows the login page.
          if (session.current) return void logout();
          notify('sessions.ended');
          void refetch();
        },
        onError: (failure) => notify((failure as Error).message, { type: 'error' }),
      },
    );

  const others = data.filter((session) => !session.current).length;
  return (
    <Box>
      <PageHeader
        title={translate('sessions.title')}
        actions={
          <Button variant="outlined" color="warning" disabled={others === 0 || endOthers.isPending} onClick={() => endOthers.mutate()}>
            {translate('sessions.end_others')}
          </Button>
        }
      />
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {translate('sessions.intro')}
      </Typography>
      {error ? <LoadError error={error} /> : null}
      {!error && !isPending && (
        <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
          <Table size="small">
            <TableHead>
              <TableRow>
                {(['device', 'address', 'created', 'last_seen', 'expires'] as const).map((column) => (
                  <TableCell key={column}>{translate(`sessions.columns.${column}`)}</TableCell>
                ))}
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {data.map((session) => {
                const device = describeUserAgent(session.user_agent) ?? translate('sessions.unknown_device');
                return (
                  <TableRow key={session.id} selected={session.current}>
                    <TableCell>
                      <Stack direction="row" spacing={1} alignItems="center">
                        <span title={session.user_agent ?? undefined}>{device}</span>
                        {session.current && <Chip size="small" color="primary" label={translate('sessions.this_session')} />}
                      </Stack>
                    </TableCell>
                    <TableCell>{session.ip ?? '—'}</TableCell>
                    <TableCell>{dateTime(session.created_at)}</TableCell>
                    <TableCell>{dateTime(session.last_seen_at)}</TableCell>
                    <TableCell>{dateTime(session.expires_at)}</TableCell>
                    <TableCell align="right">
                      <Button
                        size="small"
                        color="error"
                        disabled={ending}
                        aria-label={translate('sessions.end_label', { device })}
                        onClick={() => end(session)}
                      >
                        {translate('sessions.end')}
                      </Button>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </Paper>
      )}
    </Box>
  );
};

export default SessionList;
