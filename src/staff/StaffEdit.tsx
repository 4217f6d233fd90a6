import { Alert, Button, Stack, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Edit, Link, required, SaveButton, SelectInput, SimpleForm, Toolbar, useGetIdentity, useRecordContext, useTranslate } from 'react-admin';
import type { StaffAccount } from '@contract/staff';
import { dateTime } from '../common/format';
import { PageHeader } from '../layout/PageHeader';
import { ResetPasswordButton } from './ResetPasswordButton';
import { ResetTwoStepButton } from './ResetTwoStepButton';
import { SignInHistory } from '../twoStep/SignInHistory';
import { roleChoices, statusChoices } from './roleChoices';
import { STAFF_RESOURCE } from './staffData';

const Summary = () => {
  const account = useRecordContext<StaffAccount>();
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  if (!account) return null;
  const self = identity?.email === account.email;
  return (
    <Stack spacing={0.5} sx={{ mb: 2 }}>
      <Typography variant="h6" component="p" sx={{ wordBreak: 'break-all' }}>
        {account.email}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {account.nickname} · {translate('staff.fields.last_sign_in_at')}:{' '}
        {account.last_sign_in_at ? dateTime(account.last_sign_in_at) : translate('staff.never')}
        {account.signs_in_with_oidc ? ` · ${translate('staff.oidc')}` : ''}
        {` · ${translate('account.two_step.column')}: ${translate(account.two_step ? 'account.two_step.on' : 'account.two_step.off')}`}
      </Typography>
      {self && <Alert severity="info">{translate('staff.self_note')}</Alert>}
    </Stack>
  );
};

/** The member's sign-ins and failed attempts, below the form. */
const History = () => {
  const account = useRecordContext<StaffAccount>();
  const translate = useTranslate();
  if (!account) return null;
  return (
    <Stack spacing={1} sx={{ p: 2 }}>
      <Typography variant="h6" component="h2">
        {translate('account.history.title')}
      </Typography>
      <SignInHistory staffId={account.id} />
    </Stack>
  );
};

const EditToolbar = () => {
  const account = useRecordContext<StaffAccount>();
  const { identity } = useGetIdentity();
  return (
    <Toolbar sx={{ gap: 1, flexWrap: 'wrap' }}>
      <SaveButton />
      {/* One's own password is changed from the user menu, with the current one. */}
      {account && identity?.email !== account.email && <ResetPasswordButton />}
      {account && identity?.email !== account.email && <ResetTwoStepButton />}
    </Toolbar>
  );
};

/** One staff member: role and status (disabling ends their sessions at once), and a password reset. */
const StaffEdit = () => {
  const translate = useTranslate();
  return (
    <>
      <PageHeader
        title={translate('staff.edit_title')}
        actions={
          <Button component={Link} to="/staff" startIcon={<ArrowBackIcon />}>
            {translate('staff.back')}
          </Button>
        }
      />
      {/* Pessimistic: the server may refuse (the last owner), and the list must not show what did not happen. */}
      <Edit resource={STAFF_RESOURCE} title={false} actions={false} mutationMode="pessimistic" redirect="list" sx={{ maxWidth: 640 }}>
        <SimpleForm toolbar={<EditToolbar />}>
          <Summary />
          <SelectInput source="role" label="staff.fields.role" choices={roleChoices} validate={required()} helperText="staff.role_help" />
          <SelectInput source="status" label="staff.fields.status" choices={statusChoices} validate={required()} helperText="staff.status_help" />
        </SimpleForm>
        <History />
      </Edit>
    </>
  );
};

export default StaffEdit;
