import { Box, Button, Chip, Table, TableBody, TableCell, TableContainer, TableHead, TableRow } from '@mui/material';
import { Link } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import type { DataRequest } from '@contract/clientData';
import { clientPath } from '../clients/clientLists';
import { dateTime } from '../common/format';

const STANDING_COLOR = { open: 'default', due_soon: 'warning', overdue: 'error', handled: 'success' } as const;

/** The requests, one row each: what, whose, when it arrived and is due, where it stands, who handled it. */
export const DataRequestsTable = ({ requests, onHandled, busyId }: { requests: DataRequest[]; onHandled(id: number): void; busyId: number | null }) => {
  const translate = useTranslate();
  const t = (key: string, options?: Record<string, unknown>) => translate(`data_rights.requests.${key}`, options);
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={t('title')}>
        <TableHead>
          <TableRow>
            {(['kind', 'client', 'received', 'due', 'status', 'handled'] as const).map((column) => (
              <TableCell key={column}>{t(`columns.${column}`)}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {requests.map((request) => (
            <TableRow key={request.id}>
              <TableCell>{t(`kinds.${request.kind}`)}</TableCell>
              <TableCell>
                <Link to={clientPath(request.client_id)}>{request.client_label}</Link>
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{dateTime(request.received_at)}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{dateTime(request.due_at)}</TableCell>
              <TableCell>
                <Chip size="small" variant="outlined" color={STANDING_COLOR[request.standing]} label={t(`standing.${request.standing}`)} />
              </TableCell>
              <TableCell>
                {request.handled_at ? (
                  <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
                    {t('handled_by', { time: dateTime(request.handled_at), who: request.handled_by ?? '' })}
                  </Box>
                ) : (
                  <Button size="small" variant="outlined" disabled={busyId === request.id} onClick={() => onHandled(request.id)}>
                    {t('mark_handled')}
                  </Button>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
};
