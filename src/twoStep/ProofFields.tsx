import { useState } from 'react';
import { TextField, ToggleButton, ToggleButtonGroup, Stack } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { Proof } from '@contract/twoStep';

export type ProofKind = 'password' | 'code';

/** The server's message for the field ('body.password: is not your password'), else its whole message. */
export const proofError = (error: unknown): string => {
  const body = (error as { body?: { errors?: { message?: string }[]; message?: string } } | null)?.body;
  return body?.errors?.[0]?.message ?? body?.message ?? (error as Error | null)?.message ?? '';
};

export const proofOf = (kind: ProofKind, value: string): Proof => (kind === 'password' ? { password: value } : { code: value.trim() });

/** The state of ProofFields: `fields` goes to the component, `proof()` to the call. */
export function useProofInput() {
  const [kind, setKind] = useState<ProofKind>('password');
  const [value, setValue] = useState('');
  const [error, setError] = useState('');
  const clear = () => {
    setValue('');
    setError('');
  };
  const onKind = (next: ProofKind) => {
    setKind(next);
    clear();
  };
  return { value, setError, clear, proof: () => proofOf(kind, value), fields: { kind, onKind, value, onValue: setValue, error } };
}

/** Password or code: a switch between the two and the one field. */
export const ProofFields = (props: {
  kind: ProofKind;
  onKind(kind: ProofKind): void;
  value: string;
  onValue(value: string): void;
  error: string;
  /** Accounts without two-step have only the password. */
  codeAllowed: boolean;
}) => {
  const translate = useTranslate();
  return (
    <Stack spacing={2}>
      {props.codeAllowed && (
        <ToggleButtonGroup
          exclusive
          size="small"
          value={props.kind}
          onChange={(_, kind: ProofKind | null) => kind && props.onKind(kind)}
          aria-label={translate('account.reauth.title')}
        >
          <ToggleButton value="password">{translate('account.reauth.use_password')}</ToggleButton>
          <ToggleButton value="code">{translate('account.reauth.use_code')}</ToggleButton>
        </ToggleButtonGroup>
      )}
      <TextField
        key={props.kind}
        type={props.kind === 'password' ? 'password' : 'text'}
        label={translate(props.kind === 'password' ? 'account.reauth.password' : 'account.reauth.code')}
        autoComplete={props.kind === 'password' ? 'current-password' : 'one-time-code'}
        slotProps={{ htmlInput: props.kind === 'code' ? { maxLength: 64, autoCapitalize: 'off', spellCheck: false } : { maxLength: 1024 } }}
        value={props.value}
        onChange={(event) => props.onValue(event.target.value)}
        error={Boolean(props.error)}
        helperText={props.error || ' '}
        required
        fullWidth
        autoFocus
      />
    </Stack>
  );
};
