import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useGetIdentity, useNotify, useTranslate } from 'react-admin';
import type { TotpSetup } from '@contract/twoStep';
import { useConsoleDataProvider } from '../providers/dataProvider';
import { proofError, ProofFields, useProofInput } from './ProofFields';
import { PasskeysSection } from './PasskeysSection';

type Step = { name: 'status' } | { name: 'scan'; setup: TotpSetup } | { name: 'codes'; codes: string[] } | { name: 'turn-off' };

/** The key as authenticator apps print it: groups of four. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

/**
 * 'Two-step sign-in' from the user menu: set up an authenticator (QR code or key, confirmed by a
 * code), then the recovery codes, shown once; or turn it off with the password or a code.
 * `required`: an owner requires it, so the dialog cannot be closed before it is on.
 */
export const TwoStepDialog = ({ open, onClose, required = false }: { open: boolean; onClose(): void; required?: boolean }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useConsoleDataProvider();
  const queryClient = useQueryClient();
  const { identity } = useGetIdentity();
  const [step, setStep] = useState<Step>({ name: 'status' });
  const [value, setValue] = useState('');
  const proofInput = useProofInput();
  const [error, setError] = useState('');
  const status = useQuery({ queryKey: ['two-step', 'status'], queryFn: () => dataProvider.twoStepStatus(), enabled: open });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['two-step'] });
  const reset = (next: Step) => {
    setStep(next);
    setValue('');
    setError('');
    proofInput.clear();
  };
  const close = () => {
    reset({ name: 'status' });
    onClose();
  };

  const start = useMutation({
    mutationFn: () => dataProvider.startTotpSetup(),
    onSuccess: (setup) => reset({ name: 'scan', setup }),
    onError: (failure) => notify(proofError(failure), { type: 'error' }),
  });
  const confirm = useMutation({
    mutationFn: () => dataProvider.confirmTotpSetup(value.trim()),
    onSuccess: ({ recovery_codes }) => {
      reset({ name: 'codes', codes: recovery_codes });
      void refresh();
    },
    onError: (failure) => setError(proofError(failure)),
  });
  const turnOff = useMutation({
    mutationFn: () => dataProvider.disableTwoStep(proofInput.proof()),
    onSuccess: () => {
      notify('account.two_step.turned_off', { type: 'info' });
      void refresh();
      close();
    },
    onError: (failure) => proofInput.setError(proofError(failure)),
  });
  const busy = start.isPending || confirm.isPending || turnOff.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (step.name === 'scan') {
      if (!/^\d{6}$/.test(value.replace(/\s/g, ''))) return setError(translate('account.two_step.code_help'));
      confirm.mutate();
    } else if (step.name === 'turn-off') {
      if (!proofInput.value.trim()) return proofInput.setError(translate('account.reauth.required'));
      turnOff.mutate();
    }
  };

  const finishCodes = () => {
    // Set up because an owner requires it: everything else opens now, from a fresh page.
    if (required) window.location.reload();
    else close();
  };

  const content = () => {
    if (step.name === 'scan') {
      const src = `data:image/svg+xml;utf8,${encodeURIComponent(step.setup.qr_svg)}`;
      return (
        <Stack spacing={2}>
          <DialogContentText>{translate('account.two_step.scan')}</DialogContentText>
          <Box
            component="img"
            src={src}
            alt={translate('account.two_step.qr_alt', { email: String(identity?.email ?? '') })}
            sx={{ width: 192, height: 192, alignSelf: 'center', bgcolor: '#fff', borderRadius: 1 }}
          />
          <Box>
            <Typography variant="caption" color="text.secondary" component="p">
              {translate('account.two_step.secret')}
            </Typography>
            <Typography sx={{ fontFamily: 'monospace', fontSize: '1rem', wordBreak: 'break-word', userSelect: 'all' }}>{grouped(step.setup.secret)}</Typography>
          </Box>
          <TextField
            label={translate('account.two_step.code')}
            autoComplete="one-time-code"
            slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 7 } }}
            value={value}
            onChange={(event) => setValue(event.target.value)}
            error={Boolean(error)}
            helperText={error || translate('account.two_step.code_help')}
            required
            autoFocus
          />
        </Stack>
      );
    }
    if (step.name === 'codes') {
      return (
        <Stack spacing={2}>
          <DialogContentText>{translate('account.two_step.codes_intro')}</DialogContentText>
          <Box
            component="ol"
            sx={{ fontFamily: 'monospace', fontSize: '1rem', columns: { xs: 1, sm: 2 }, columnGap: 4, m: 0, pl: 4 }}
            aria-label={translate('account.two_step.codes_title')}
          >
            {step.codes.map((code) => (
              <li key={code}>{code}</li>
            ))}
          </Box>
        </Stack>
      );
    }
    if (step.name === 'turn-off') {
      return (
        <Stack spacing={2}>
          <DialogContentText>{translate('account.two_step.turn_off_intro')}</DialogContentText>
          <ProofFields {...proofInput.fields} codeAllowed />
        </Stack>
      );
    }
    const data = status.data;
    return (
      <Stack spacing={2}>
        {(required || data?.required) && !data?.enabled && <Alert severity="warning">{translate('account.two_step.required')}</Alert>}
        <DialogContentText>
          {data?.enabled
            ? translate('account.two_step.on_since', {
                date: new Date(data.enabled_at ?? Date.now()).toLocaleDateString(),
                smart_count: data.recovery_codes_left,
              })
            : translate('account.two_step.off_intro')}
        </DialogContentText>
        {/* A passkey added while an owner requires two-step is this account's second step: everything opens, from a fresh page. */}
        <PasskeysSection onAdded={required ? () => window.location.reload() : undefined} />
      </Stack>
    );
  };

  const actions = () => {
    if (step.name === 'codes') {
      return (
        <>
          <Button
            onClick={() =>
              void navigator.clipboard?.writeText(step.codes.join('\n')).then(
                () => notify('account.two_step.copied', { type: 'info' }),
                () => undefined,
              )
            }
          >
            {translate('account.two_step.copy')}
          </Button>
          <Button variant="contained" onClick={finishCodes}>
            {translate('account.two_step.done')}
          </Button>
        </>
      );
    }
    const cancel = !required && (
      <Button onClick={step.name === 'status' ? close : () => reset({ name: 'status' })} disabled={busy}>
        {translate(step.name === 'status' ? 'ra.action.close' : 'ra.action.cancel')}
      </Button>
    );
    if (step.name === 'scan' || step.name === 'turn-off') {
      return (
        <>
          {cancel}
          <Button type="submit" variant="contained" disabled={busy}>
            {translate(step.name === 'scan' ? 'account.two_step.confirm' : 'account.two_step.turn_off')}
          </Button>
        </>
      );
    }
    return (
      <>
        {cancel}
        {status.data?.enabled
          ? !status.data.required && (
              <Button color="error" onClick={() => reset({ name: 'turn-off' })}>
                {translate('account.two_step.turn_off')}
              </Button>
            )
          : status.data && (
              <Button variant="contained" onClick={() => start.mutate()} disabled={busy}>
                {translate('account.two_step.start')}
              </Button>
            )}
      </>
    );
  };

  return (
    <Dialog open={open} onClose={required || busy || step.name === 'codes' ? undefined : close} fullWidth maxWidth="xs" aria-labelledby="two-step-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="two-step-title">{translate(step.name === 'codes' ? 'account.two_step.codes_title' : 'account.two_step.title')}</DialogTitle>
        <DialogContent>{content()}</DialogContent>
        <DialogActions>{actions()}</DialogActions>
      </form>
    </Dialog>
  );
};
