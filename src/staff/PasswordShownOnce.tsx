import { useState } from 'react';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Typography } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useTranslate } from 'react-admin';

/**
 * A generated password, shown once: the server keeps only its hash, so closing this is the last
 * chance to read it. The owner hands it over; the staff member changes it from the user menu.
 */
export const PasswordShownOnce = ({ email, password, onClose }: { email: string; password: string | null; onClose(): void }) => {
  const translate = useTranslate();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(password ?? '');
      setCopied(true);
    } catch {
      setCopied(false); // no clipboard (an http page, a refusing browser): the password is on screen to copy by hand
    }
  };
  return (
    <Dialog open={password !== null} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="password-once-title">
      <DialogTitle id="password-once-title">{translate('staff.password.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{translate('staff.password.intro', { email })}</DialogContentText>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography
            component="code"
            aria-label={translate('staff.password.label')}
            sx={{ fontFamily: 'monospace', fontSize: '1.1rem', p: 1, borderRadius: 1, bgcolor: 'action.hover', wordBreak: 'break-all' }}
          >
            {password}
          </Typography>
          <Button startIcon={<ContentCopyIcon />} onClick={() => void copy()}>
            {translate(copied ? 'staff.password.copied' : 'staff.password.copy')}
          </Button>
        </Box>
        <Alert severity="warning" sx={{ mt: 2 }}>
          {translate('staff.password.once')}
        </Alert>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {translate('staff.password.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
