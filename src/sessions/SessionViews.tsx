import { Box, Button, Chip, Paper, Stack, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { ListContextProvider, SimpleList, useList, useTranslate } from 'react-admin';
import type { StaffSession } from '@contract/sessions';
import { dateTime } from '../common/format';
import { SESSIONS_RESOURCE } from './sessionsData';
import { describeUserAgent } from './userAgent';
import { visuallyHidden } from '@mui/utils';

export type SessionRow = StaffSession & { id: string };

interface ViewProps {
  sessions: SessionRow[];
  ending: boolean;
  onEnd(session: SessionRow): void;
}

const useDevice = () => {
  const translate = useTranslate();
  return (session: SessionRow) => describeUserAgent(session.user_agent) ?? translate('sessions.unknown_device');
};

const EndButton = ({ session, device, ending, onEnd }: { session: SessionRow; device: string; ending: boolean; onEnd(session: SessionRow): void }) => {
  const translate = useTranslate();
  return (
    <Button size="small" color="error" disabled={ending} aria-label={translate('sessions.end_label', { device })} onClick={() => onEnd(session)}>
      {translate('sessions.end')}
    </Button>
  );
};

/** Every session as a table row: browser, address, when it signed in, was last seen and ends. */
export const SessionTable = ({ sessions, ending, onEnd }: ViewProps) => {
  const translate = useTranslate();
  const deviceOf = useDevice();
  return (
    <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
      <Table size="small">
        <TableHead>
          <TableRow>
            {(['device', 'address', 'created', 'last_seen', 'expires'] as const).map((column) => (
              <TableCell key={column}>{translate(`sessions.columns.${column}`)}</TableCell>
            ))}
            <TableCell>
              <Box component="span" sx={visuallyHidden}>
                {translate('sessions.columns.actions')}
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {sessions.map((session) => {
            const device = deviceOf(session);
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
                  <EndButton session={session} device={device} ending={ending} onEnd={onEnd} />
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </Paper>
  );
};

/** On a phone, a card per session (react-admin demo's SimpleList): browser and its mark, the times, End. */
export const SessionCards = ({ sessions, ending, onEnd }: ViewProps) => {
  const translate = useTranslate();
  const deviceOf = useDevice();
  const list = useList({ data: sessions });
  const times = (session: SessionRow) =>
    [
      session.ip,
      `${translate('sessions.columns.created')} ${dateTime(session.created_at)}`,
      `${translate('sessions.columns.last_seen')} ${dateTime(session.last_seen_at)}`,
      `${translate('sessions.columns.expires')} ${dateTime(session.expires_at)}`,
    ].filter(Boolean);
  return (
    <Paper variant="outlined">
      <ListContextProvider value={list}>
        <SimpleList<SessionRow>
          resource={SESSIONS_RESOURCE}
          rowClick={false}
          primaryText={(session) => (
            <Stack direction="row" spacing={1} alignItems="center" component="span">
              <span>{deviceOf(session)}</span>
              {session.current && <Chip size="small" color="primary" label={translate('sessions.this_session')} />}
            </Stack>
          )}
          secondaryText={(session) => (
            <>
              {times(session).map((line) => (
                <Box key={line} component="span" sx={{ display: 'block' }}>
                  {line}
                </Box>
              ))}
              <EndButton session={session} device={deviceOf(session)} ending={ending} onEnd={onEnd} />
            </>
          )}
          sx={(theme) => ({ '& .MuiListItem-root + .MuiListItem-root': { borderTop: `1px solid ${theme.palette.divider}` } })}
        />
      </ListContextProvider>
    </Paper>
  );
};
