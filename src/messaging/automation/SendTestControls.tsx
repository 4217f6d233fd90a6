import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import SendIcon from '@mui/icons-material/Send';
import { useNotify, useTranslate } from 'react-admin';
import { failureReason } from '../failureReason';
import { useSaveDeviceToken, useSendTest } from './useAutomation';

/** The staff member's own device token and 'Send test to me'. */
export const SendTestControls = ({ typeId, storedToken }: { typeId: number; storedToken: string | null }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const [token, setToken] = useState(storedToken ?? '');
  const saveToken = useSaveDeviceToken(typeId);
  const sendTest = useSendTest(typeId);
  const t = (key: string) => translate(`messaging.automation.${key}`);
  const reason = (error: unknown) => failureReason(error, () => t('fields.device_token'));
  const tokenChanged = token.trim() !== (storedToken ?? '');

  const save = async () => {
    try {
      await saveToken.mutateAsync(token.trim() === '' ? null : token.trim());
      notify('messaging.automation.notify.token_saved', { type: 'success' });
    } catch (error) {
      notify('messaging.automation.notify.save_failed', { type: 'error', messageArgs: { reason: reason(error) } });
    }
  };
  const test = async () => {
    try {
      const result = await sendTest.mutateAsync();
      if (result.status === 'sent') notify('messaging.automation.notify.test_sent', { type: 'success', messageArgs: { title: result.title } });
      else notify('messaging.automation.notify.test_failed', { type: 'error', messageArgs: { reason: result.error ?? '' } });
    } catch (error) {
      notify('messaging.automation.notify.test_failed', { type: 'error', messageArgs: { reason: reason(error) } });
    }
  };

  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 2, mt: 3 }}>
      <TextField
        label={t('fields.device_token')}
        value={token}
        onChange={(e) => setToken(e.target.value)}
        helperText={t('help.device_token')}
        sx={{ flex: '1 1 320px' }}
      />
      <Button variant="outlined" onClick={save} disabled={!tokenChanged} loading={saveToken.isPending} sx={{ mt: 1 }}>
        {t('actions.save_token')}
      </Button>
      <Button variant="contained" startIcon={<SendIcon />} onClick={test} disabled={!storedToken || tokenChanged} loading={sendTest.isPending} sx={{ mt: 1 }}>
        {t('actions.send_test')}
      </Button>
    </Box>
  );
};
