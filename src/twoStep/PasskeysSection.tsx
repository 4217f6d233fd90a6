import { useState } from 'react';
import { Alert, Box, Button, IconButton, List, ListItem, ListItemText, Stack, TextField, Tooltip, Typography } from '@mui/material';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import { browserSupportsWebAuthn, startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { PASSKEY_NAME_MAX } from '@contract/passkeys';
import { dateTime } from '../common/format';
import { useConsoleDataProvider } from '../providers/dataProvider';
import { proofError } from './ProofFields';

/** The browser's own refusal (the member cancelled, or the device said no) rather than the server's. */
const isBrowserRefusal = (error: unknown) => error instanceof Error && !('status' in error) && !('body' in error);

/**
 * The member's passkeys in the two-step dialog: listed with when each was added and last used,
 * removable, and a new one added under a name. `onAdded`: a passkey counts as two-step (the owner's rule).
 */
export const PasskeysSection = ({ onAdded }: { onAdded?: () => void }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useConsoleDataProvider();
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const list = useQuery({ queryKey: ['two-step', 'passkeys'], queryFn: () => dataProvider.passkeys() });
  const supported = browserSupportsWebAuthn();

  const add = useMutation({
    mutationFn: async () => {
      const optionsJSON = (await dataProvider.passkeyRegistrationOptions()) as unknown as PublicKeyCredentialCreationOptionsJSON;
      let response;
      try {
        response = await startRegistration({ optionsJSON });
      } catch {
        throw new Error(translate('account.passkeys.cancelled'));
      }
      return dataProvider.addPasskey(name.trim(), response);
    },
    onSuccess: (passkey) => {
      notify('account.passkeys.added', { type: 'info', messageArgs: { name: passkey.name } });
      setAdding(false);
      setName('');
      setError('');
      void queryClient.invalidateQueries({ queryKey: ['two-step'] });
      onAdded?.();
    },
    onError: (failure) => setError(isBrowserRefusal(failure) ? (failure as Error).message : proofError(failure)),
  });
  const remove = useMutation({
    mutationFn: (passkey: { id: number; name: string }) => dataProvider.removePasskey(passkey.id).then(() => passkey),
    onSuccess: (passkey) => {
      notify('account.passkeys.removed', { type: 'info', messageArgs: { name: passkey.name } });
      void queryClient.invalidateQueries({ queryKey: ['two-step'] });
    },
    onError: (failure) => notify(proofError(failure), { type: 'error' }),
  });

  // Inside the dialog's form, so no form of its own (forms do not nest): Enter in the name creates it.
  const create = () => {
    if (!name.trim()) return setError(translate('account.passkeys.name_help'));
    add.mutate();
  };

  return (
    <Stack spacing={1} component="section" aria-labelledby="passkeys-title">
      <Typography id="passkeys-title" variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {translate('account.passkeys.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {translate('account.passkeys.intro')}
      </Typography>
      {list.data && list.data.length === 0 && <Typography variant="body2">{translate('account.passkeys.none')}</Typography>}
      {list.data && list.data.length > 0 && (
        <List dense disablePadding aria-label={translate('account.passkeys.title')}>
          {list.data.map((passkey) => (
            <ListItem
              key={passkey.id}
              disableGutters
              secondaryAction={
                <Tooltip title={translate('account.passkeys.remove')}>
                  <IconButton
                    edge="end"
                    aria-label={translate('account.passkeys.remove_label', { name: passkey.name })}
                    onClick={() => remove.mutate(passkey)}
                    disabled={remove.isPending}
                  >
                    <DeleteIcon />
                  </IconButton>
                </Tooltip>
              }
            >
              <ListItemText
                primary={passkey.name}
                slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
                secondary={`${translate('account.passkeys.added_on', { date: dateTime(passkey.created_at) })} · ${
                  passkey.last_used_at
                    ? translate('account.passkeys.last_used', { date: dateTime(passkey.last_used_at) })
                    : translate('account.passkeys.never_used')
                }`}
              />
            </ListItem>
          ))}
        </List>
      )}
      {!supported && <Alert severity="info">{translate('account.passkeys.unsupported')}</Alert>}
      {supported && !adding && (
        <Box>
          <Button variant="outlined" onClick={() => setAdding(true)}>
            {translate('account.passkeys.add')}
          </Button>
        </Box>
      )}
      {supported && adding && (
        <Box>
          <Stack spacing={1}>
            <TextField
              label={translate('account.passkeys.name')}
              value={name}
              onChange={(event) => setName(event.target.value)}
              onKeyDown={(event) => {
                if (event.key !== 'Enter') return;
                event.preventDefault();
                create();
              }}
              error={Boolean(error)}
              helperText={error || translate('account.passkeys.name_help')}
              slotProps={{ htmlInput: { maxLength: PASSKEY_NAME_MAX } }}
              required
              autoFocus
              fullWidth
            />
            <Stack direction="row" spacing={1} justifyContent="flex-end">
              <Button onClick={() => setAdding(false)} disabled={add.isPending}>
                {translate('ra.action.cancel')}
              </Button>
              <Button variant="contained" onClick={create} disabled={add.isPending}>
                {translate('account.passkeys.save')}
              </Button>
            </Stack>
          </Stack>
        </Box>
      )}
    </Stack>
  );
};
