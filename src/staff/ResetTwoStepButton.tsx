import { useState } from 'react';
import { Button } from '@mui/material';
import PhonelinkEraseIcon from '@mui/icons-material/PhonelinkEraseOutlined';
import { useMutation } from '@tanstack/react-query';
import { Confirm, useNotify, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import type { StaffAccount } from '@contract/staff';
import { useConsoleDataProvider } from '../providers/dataProvider';

/** Turns another member's two-step off (a lost phone), after a confirmation; their sessions end. */
export const ResetTwoStepButton = () => {
  const account = useRecordContext<StaffAccount>();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const dataProvider = useConsoleDataProvider();
  const [asking, setAsking] = useState(false);
  const reset = useMutation({
    mutationFn: (id: number) => dataProvider.resetStaffTwoStep(id),
    onSuccess: (answer) => {
      setAsking(false);
      notify('account.two_step.reset_done', { type: 'info', messageArgs: { email: answer.email } });
      refresh();
    },
    onError: (failure: Error) => {
      setAsking(false);
      notify(failure.message, { type: 'error' });
    },
  });
  if (!account?.two_step) return null;
  return (
    <>
      <Button startIcon={<PhonelinkEraseIcon />} onClick={() => setAsking(true)}>
        {translate('account.two_step.reset_button')}
      </Button>
      <Confirm
        isOpen={asking}
        loading={reset.isPending}
        title="account.two_step.reset_title"
        content={translate('account.two_step.reset_content', { email: account.email })}
        confirm="account.two_step.reset_button"
        onConfirm={() => reset.mutate(account.id)}
        onClose={() => setAsking(false)}
      />
    </>
  );
};
