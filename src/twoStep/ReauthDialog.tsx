import { useEffect, useState, type FormEvent } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Divider } from '@mui/material';
import KeyIcon from '@mui/icons-material/Key';
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { AuthenticationResponse } from '@contract/passkeys';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { useConsoleDataProvider } from '../providers/dataProvider';
import type { IdentityQuestion } from '../providers/identityCheck';
import { proofError, ProofFields, useProofInput } from './ProofFields';

/**
 * 'Confirm it is you': opened by the dataProvider when a sensitive call answers reauth_required;
 * once the check passes, the waiting call is sent again. Cancel fails it with the server's message.
 */
export const ReauthDialog = ({ question }: { question: IdentityQuestion | null }) => {
  const translate = useTranslate();
  const dataProvider = useConsoleDataProvider();
  const input = useProofInput();
  const [sending, setSending] = useState(false);
  const { clear } = input;
  // A new question starts empty.
  useEffect(() => {
    clear();
    setSending(false);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [question]);
  // A member without two-step has only the password (the server says the same if a code is sent).
  const status = useQuery({ queryKey: ['two-step', 'status'], queryFn: () => dataProvider.twoStepStatus(), enabled: question !== null });
  const codeAllowed = status.data?.enabled ?? false;
  const passkeys = useQuery({ queryKey: ['two-step', 'passkeys'], queryFn: () => dataProvider.passkeys(), enabled: question !== null });
  const passkeyAllowed = (passkeys.data?.length ?? 0) > 0;

  const answerWithPasskey = async () => {
    if (!question) return;
    setSending(true);
    try {
      const optionsJSON = (await dataProvider.passkeyReauthOptions()) as unknown as PublicKeyCredentialRequestOptionsJSON;
      let response;
      try {
        response = await startAuthentication({ optionsJSON });
      } catch {
        input.setError(translate('account.passkeys.not_used'));
        setSending(false);
        return;
      }
      await question.answer({ passkey: response as AuthenticationResponse });
    } catch (failure) {
      input.setError(proofError(failure));
      setSending(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!question) return;
    if (!input.value.trim()) return input.setError(translate('account.reauth.required'));
    setSending(true);
    try {
      await question.answer(input.proof());
    } catch (failure) {
      input.setError(proofError(failure));
      setSending(false);
    }
  };

  return (
    <Dialog open={question !== null} onClose={sending ? undefined : () => question?.cancel()} fullWidth maxWidth="xs" aria-labelledby="reauth-title">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id="reauth-title">{translate('account.reauth.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{translate('account.reauth.intro')}</DialogContentText>
          <ProofFields {...input.fields} codeAllowed={codeAllowed} />
          {passkeyAllowed && (
            <>
              <Divider sx={{ my: 1 }}>{translate('account.two_step.or')}</Divider>
              <Button fullWidth variant="outlined" startIcon={<KeyIcon />} onClick={() => void answerWithPasskey()} disabled={sending}>
                {translate('account.passkeys.use')}
              </Button>
            </>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => question?.cancel()} disabled={sending}>
            {translate('ra.action.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={sending}>
            {translate('account.reauth.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
};
