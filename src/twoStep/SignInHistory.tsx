import { Alert, Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Loading, useTranslate } from 'react-admin';
import type { SignInEntry } from '@contract/twoStep';
import { dateTime } from '../common/format';
import { useConsoleDataProvider } from '../providers/dataProvider';
import { describeUserAgent } from '../sessions/userAgent';

/** 'Password + authenticator code', 'Single sign-on + provider's two-step'; a passkey is both steps at once. */
const methodText = (entry: SignInEntry, translate: (key: string) => string) =>
  [entry.method, entry.second_step === entry.method ? null : entry.second_step]
    .filter((part): part is string => Boolean(part))
    .map((part) => translate(`account.history.methods.${part}`))
    .join(' + ');

/** An account's sign-ins and failed attempts (the member's own without `staffId`; owners pass one). */
export const SignInHistory = ({ staffId }: { staffId?: number }) => {
  const translate = useTranslate();
  const dataProvider = useConsoleDataProvider();
  const history = useQuery({ queryKey: ['sign-ins', staffId ?? 'me'], queryFn: () => dataProvider.signInHistory(staffId) });
  if (history.isPending) return <Loading />;
  if (history.isError) return <Alert severity="error">{history.error.message}</Alert>;
  if (history.data.length === 0) return <Typography color="text.secondary">{translate('account.history.empty')}</Typography>;
  return (
    // Scrolls sideways on a phone: focusable, so a keyboard can scroll it too.
    <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={translate('account.history.title')}>
      <Table size="small" aria-label={translate('account.history.title')}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('account.history.at')}</TableCell>
            <TableCell>{translate('account.history.outcome')}</TableCell>
            <TableCell>{translate('account.history.method')}</TableCell>
            <TableCell>{translate('account.history.where')}</TableCell>
            <TableCell>{translate('account.history.browser')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {history.data.map((entry) => (
            <TableRow key={entry.id}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{dateTime(entry.at)}</TableCell>
              <TableCell sx={{ color: entry.outcome === 'failed' ? 'error.main' : undefined }}>
                {entry.outcome === 'signed_in' ? translate('account.history.signed_in') : translate('account.history.failed', { reason: entry.reason ?? '' })}
              </TableCell>
              <TableCell>{methodText(entry, translate)}</TableCell>
              <TableCell sx={{ fontFamily: 'monospace' }}>{entry.ip ?? ''}</TableCell>
              <TableCell title={entry.user_agent ?? undefined}>{describeUserAgent(entry.user_agent) ?? entry.user_agent ?? ''}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
};
