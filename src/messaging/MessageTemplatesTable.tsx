import { alpha, type Theme } from '@mui/material/styles';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'react-admin';
import type { MessageEdit, MessageRow } from './messageEdits';
import { MessagePreview } from './MessagePreview';

// On a phone the three columns do not fit: each row becomes title + switch, message below.
const stackOnPhones = (theme: Theme) => ({
  [theme.breakpoints.down('sm')]: {
    '& thead': { display: 'none' },
    '& tbody tr': { display: 'grid', gridTemplateColumns: '1fr auto', gridTemplateAreas: '"title enabled" "message message"' },
    '& tbody td': { borderBottom: 0 },
    '& tbody tr + tr': { borderTop: `1px solid ${theme.palette.divider}` },
  },
});

export interface MessageTemplatesTableProps {
  rows: MessageRow[];
  /** Why a row's last save failed, by message id. */
  failures: Record<number, string>;
  onEdit(id: number, edit: MessageEdit): void;
}

/** Every template of one type, editable in place; edited rows are marked until they are saved. */
export const MessageTemplatesTable = ({ rows, failures, onEdit }: MessageTemplatesTableProps) => {
  const translate = useTranslate();
  return (
    <Table size="small" aria-label={translate('messaging.table_label')} sx={stackOnPhones}>
      <TableHead>
        <TableRow>
          <TableCell sx={{ width: '28%' }}>{translate('messaging.columns.title')}</TableCell>
          <TableCell>{translate('messaging.columns.message')}</TableCell>
          <TableCell sx={{ width: 110 }}>{translate('messaging.columns.enabled')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((row) => {
          const failure = failures[row.id];
          const changed = row.ranupdates === 'true';
          return (
            <TableRow
              key={row.id}
              data-ranupdates={changed ? 'true' : undefined}
              sx={{
                verticalAlign: 'top',
                bgcolor: (theme) => (failure ? alpha(theme.palette.error.main, 0.06) : changed ? alpha(theme.palette.info.main, 0.06) : undefined),
                boxShadow: failure
                  ? (theme) => `inset 4px 0 ${theme.palette.error.main}`
                  : changed
                    ? (theme) => `inset 4px 0 ${theme.palette.info.main}`
                    : undefined,
              }}
            >
              <TableCell sx={{ gridArea: 'title' }}>
                <TextField
                  hiddenLabel
                  value={row.title}
                  onChange={(event) => onEdit(row.id, { title: event.target.value })}
                  size="small"
                  fullWidth
                  slotProps={{ htmlInput: { 'aria-label': translate('messaging.columns.title') } }}
                />
                {changed && !failure && (
                  <Typography variant="caption" color="info.main">
                    {translate('messaging.row.unsaved')}
                  </Typography>
                )}
                {failure && (
                  <Typography variant="caption" color="error">
                    {translate('messaging.row.not_saved', { reason: failure })}
                  </Typography>
                )}
              </TableCell>
              <TableCell sx={{ gridArea: 'message' }}>
                <TextField
                  hiddenLabel
                  value={row.message}
                  onChange={(event) => onEdit(row.id, { message: event.target.value })}
                  size="small"
                  fullWidth
                  multiline
                  minRows={1}
                  slotProps={{ htmlInput: { 'aria-label': translate('messaging.columns.message') } }}
                />
                <MessagePreview text={row.message} />
              </TableCell>
              <TableCell sx={{ gridArea: 'enabled' }}>
                <Switch
                  checked={row.enabled}
                  onChange={(event) => onEdit(row.id, { enabled: event.target.checked })}
                  slotProps={{ input: { 'aria-label': translate('messaging.columns.enabled') } }}
                />
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
};
