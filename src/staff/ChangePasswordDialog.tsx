import { useState, type FormEvent } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Stack, TextField } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import { PASSWORD_MIN_LENGTH } from '@contract/staffRules';
import { useConsoleDataProvider } from '../providers/dataProvider';

type Field = 'current_password' | 'new_password' | 'repeat';

/** The server's field errors ('body.current_password') by field. */
const fieldErrors = (error: unknown): Partial<Record<Field, string>> => {
  const list = (error as { body?: { errors?: { path?: string; message?: string }[] } })?.body?.errors ?? [];
  return Object.fromEntries(list.map(({ path, message }) => [String(path).replace(/^body\./, ''), message ?? '']));
};

/** 'Change password' from the user menu: the current one, then the new one twice. The other sessions end. */
export const ChangePasswordDialog = ({ open, onClose }: { open: boolean; onClose(): void }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useConsoleDataProvider();
  const [values, setValues] = useState<Record<Field, string>>({ current_password: '', new_password: '', repeat: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const close = () => {
    setValues({ current_password: '', new_password: '', repeat: '' });
    setErrors({});
    onClose();
  };
  const change = useMutation({
    mutationFn: () => dataProvider.changeOwnPassword({ current_password: values.current_password, new_password: values.new_password }),
    onSuccess: ({ ended_sessions }) => {
      notify('account.password.changed', { type: 'success', messageArgs: { smart_count: ended_sessions } });
      close();
    },
    onError: (error: Error) => {
      const byField = fieldErrors(error);
      setErrors(byField);
      if (Object.keys(byField).length === 0) notify(error.message, { type: 'error' });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Partial<Record<Field, string>> = {};
    if (!values.current_password) found.current_password = translate('account.password.required');
    if (values.new_password.length < PASSWORD_MIN_LENGTH) found.new_password = translate('account.password.too_short', { min: PASSWORD_MIN_LENGTH });
    if (values.repeat !== values.new_password) found.repeat = translate('account.password.mismatch');
    setErrors(found);
    if (Object.keys(found).length === 0) change.mutate();
  };

  const input = (field: Field, autoComplete: string) => (
    <TextField
      key={field}
      type="password"
      label={translate(`account.password.${field}`)}
      autoComplete={autoComplete}
      value={values[field]}
      onChange={(event) => setValues((current) => ({ ...current, [field]: event.target.value }))}
      error={Boolean(errors[field])}
      helperText={errors[field] ?? ' '}
      required
      fullWidth
      autoFocus={field === 'current_password'}
    />
  );

  return (
    <Dialog open={open} onClose={change.isPending ? undefined : close} fullWidth maxWidth="xs" aria-labelledby="change-password-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="change-password-title">{translate('account.password.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{translate('account.password.intro')}</DialogContentText>
          <Stack spacing={1}>
            {input('current_password', 'current-password')}
            {input('new_password', 'new-password')}
            {input('repeat', 'new-password')}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={change.isPending}>
            {translate('ra.action.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={change.isPending}>
            {translate('account.password.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
