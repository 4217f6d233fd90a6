import { useState } from 'react';
import { Button } from '@mui/material';
import LockResetIcon from '@mui/icons-material/LockReset';
import { useMutation } from '@tanstack/react-query';
import { Confirm, useNotify, useRecordContext, useTranslate } from 'react-admin';
import type { StaffAccount, StaffWithPassword } from '@contract/staff';
import { useConsoleDataProvider } from '../providers/dataProvider';
import { PasswordShownOnce } from './PasswordShownOnce';

/** A new generated password for this staff member, after a confirmation; their sessions end. */
export const ResetPasswordButton = () => {
  const account = useRecordContext<StaffAccount>();
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useConsoleDataProvider();
  const [asking, setAsking] = useState(false);
  const [result, setResult] = useState<StaffWithPassword | null>(null);
  const reset = useMutation({
    mutationFn: (id: number) => dataProvider.resetStaffPassword(id),
    onSuccess: (answer) => {
      setAsking(false);
      setResult(answer);
    },
    onError: (failure: Error) => {
      setAsking(false);
      notify(failure.message, { type: 'error' });
    },
  });
  if (!account) return null;
  return (
    <>
      <Button startIcon={<LockResetIcon />} onClick={() => setAsking(true)}>
        {translate('staff.reset.button')}
      </Button>
      <Confirm
        isOpen={asking}
        loading={reset.isPending}
        title="staff.reset.title"
        content={translate('staff.reset.content', { email: account.email })}
        confirm="staff.reset.confirm"
        onConfirm={() => reset.mutate(account.id)}
        onClose={() => setAsking(false)}
      />
      <PasswordShownOnce email={result?.email ?? ''} password={result?.password ?? null} onClose={() => setResult(null)} />
    </>
  );
};
