import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import SaveIcon from '@mui/icons-material/Save';
import { useNotify, useTranslate } from 'react-admin';
import { MESSAGE_PLACEHOLDERS } from '@contract/placeholders';
import { AddMessageDialog } from './AddMessageDialog';
import { failureReason } from './failureReason';
import { LeaveGuard } from './LeaveGuard';
import { rowLabel } from './messageEdits';
import { MessageTemplatesTable } from './MessageTemplatesTable';
import { useMessageTemplates } from './useMessageTemplates';

const TOAST_MS = 6000;
const COLUMN_KEYS: Record<string, string> = {
  title: 'messaging.columns.title',
  message: 'messaging.columns.message',
  enabled: 'messaging.columns.enabled',
};

/** The templates of one type: the editable table, 'Save Settings' and 'Add new message'. */
export const MessageTemplates = ({ typeId }: { typeId: number }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const { query, rows, failures, edit, hasChanges, save, isSaving } = useMessageTemplates(typeId);
  const [adding, setAdding] = useState(false);
  const fieldLabel = (field: string) => (COLUMN_KEYS[field] ? translate(COLUMN_KEYS[field]) : undefined);
  const reasons = Object.fromEntries(Object.entries(failures).map(([id, error]) => [id, failureReason(error, fieldLabel)]));

  const saveSettings = async () => {
    const { saved, failed } = await save();
    if (failed.length > 0) {
      const names = failed.map(({ row }) => rowLabel(rows, row)).join(', ');
      notify('messaging.notify.rows_not_saved', { type: 'error', autoHideDuration: TOAST_MS, messageArgs: { rows: names, smart_count: failed.length } });
    } else if (saved.length > 0) {
      notify('messaging.notify.settings_saved', { type: 'success', autoHideDuration: TOAST_MS, messageArgs: { smart_count: saved.length } });
    }
  };

  return (
    <>
      <LeaveGuard when={hasChanges} />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, justifyContent: 'flex-end', mb: 2 }}>
        {rows.length > 0 && (
          <Button variant="contained" startIcon={<SaveIcon />} onClick={saveSettings} disabled={!hasChanges} loading={isSaving}>
            {translate('messaging.actions.save_settings')}
          </Button>
        )}
        <Button variant="outlined" startIcon={<AddIcon />} onClick={() => setAdding(true)}>
          {translate('messaging.actions.add')}
        </Button>
      </Box>
      <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
        {query.isPending ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
            <CircularProgress aria-label={translate('messaging.loading')} />
          </Box>
        ) : query.isError && rows.length === 0 ? (
          <Alert severity="error">{translate('messaging.load_failed')}</Alert>
        ) : rows.length === 0 ? (
          <Typography sx={{ p: 3 }} color="text.secondary">
            {translate('messaging.empty')}
          </Typography>
        ) : (
          <MessageTemplatesTable rows={rows} failures={reasons} onEdit={edit} />
        )}
      </Paper>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
        {translate('messaging.placeholders.hint', { placeholders: MESSAGE_PLACEHOLDERS.map((name) => `{${name}}`).join(' ') })}
      </Typography>
      <AddMessageDialog typeId={typeId} open={adding} onClose={() => setAdding(false)} />
    </>
  );
};
