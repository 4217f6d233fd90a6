import { Box, Button, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useDelete, useGetList, useLogout, useNotify, useTranslate } from 'react-admin';
import { SESSIONS_RESOURCE } from './sessionsData';
import { LoadError } from '../common/LoadError';
import { PageHeader } from '../layout/PageHeader';
import { useConsoleDataProvider } from '../providers/dataProvider';
import { useIsPhone } from '../layout/useIsPhone';
import { SessionCards, SessionTable, type SessionRow } from './SessionViews';

/** 'My sessions' (docs/features.md "Sign-in", ASVS 7.4): every browser the staff member is signed in on, each one endable. */
const SessionList = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const logout = useLogout();
  const dataProvider = useConsoleDataProvider();
  const isPhone = useIsPhone();
  const {
    data = [],
    isPending,
    error,
    refetch,
  } = useGetList<SessionRow>(SESSIONS_RESOURCE, {
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

  const end = (session: SessionRow) =>
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
      {!error &&
        !isPending &&
        (isPhone ? <SessionCards sessions={data} ending={ending} onEnd={end} /> : <SessionTable sessions={data} ending={ending} onEnd={end} />)}
    </Box>
  );
};

export default SessionList;
