import { Box, Chip, Typography, useMediaQuery, type Theme } from '@mui/material';
import { CreateButton, DataTable, List, SimpleList, TopToolbar, useRecordContext, useTranslate } from 'react-admin';
import type { StaffAccount } from '@contract/staff';
import { dateTime } from '../common/format';
import { PageHeader } from '../layout/PageHeader';
import { STAFF_RESOURCE } from './staffData';
import { RequireTwoStepSwitch } from './RequireTwoStepSwitch';

const Column = DataTable.Col<StaffAccount>;

export const RoleChip = ({ account }: { account: StaffAccount }) => {
  const translate = useTranslate();
  return <Chip size="small" label={translate(`staff.roles.${account.role}`)} color={account.role === 'owner' ? 'primary' : 'default'} variant="outlined" />;
};

const RoleCell = () => {
  const account = useRecordContext<StaffAccount>();
  return account ? <RoleChip account={account} /> : null;
};

const StatusCell = () => {
  const account = useRecordContext<StaffAccount>();
  const translate = useTranslate();
  if (!account) return null;
  return (
    <Typography variant="body2" color={account.status === 'disabled' ? 'error' : 'text.primary'}>
      {translate(`staff.statuses.${account.status}`)}
    </Typography>
  );
};

const LastSignInCell = () => {
  const account = useRecordContext<StaffAccount>();
  const translate = useTranslate();
  if (!account) return null;
  return <>{account.last_sign_in_at ? dateTime(account.last_sign_in_at) : translate('staff.never')}</>;
};

const TwoStepCell = () => {
  const account = useRecordContext<StaffAccount>();
  const translate = useTranslate();
  if (!account) return null;
  return <>{translate(account.two_step ? 'account.two_step.on' : 'account.two_step.off')}</>;
};

const Actions = () => (
  <TopToolbar>
    <CreateButton label="staff.add" />
  </TopToolbar>
);

/** Staff (owners): who can sign in, with which role, and when they last did; a row opens its edit page. */
const StaffList = () => {
  const translate = useTranslate();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  return (
    <Box>
      <PageHeader title={translate('staff.title')} />
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {translate('staff.intro')}
      </Typography>
      <RequireTwoStepSwitch />
      {/* On a phone the Add button floats at the bottom (react-admin's mobile CreateButton), so the list has no toolbar. */}
      <List
        resource={STAFF_RESOURCE}
        title={false}
        actions={phone ? false : <Actions />}
        sort={{ field: 'email', order: 'ASC' }}
        perPage={50}
        empty={false}
        sx={{ '& .RaList-main': { minWidth: 0 } }}
      >
        {phone ? (
          <SimpleList<StaffAccount>
            linkType="edit"
            primaryText={(account) => account.email}
            secondaryText={(account) =>
              `${translate(`staff.roles.${account.role}`)} · ${translate(`staff.statuses.${account.status}`)} · ${translate('account.two_step.column')}: ${translate(
                account.two_step ? 'account.two_step.on' : 'account.two_step.off',
              )} · ${account.last_sign_in_at ? dateTime(account.last_sign_in_at) : translate('staff.never')}`
            }
          />
        ) : (
          <DataTable bulkActionButtons={false} rowClick="edit">
            <Column source="email" label="staff.fields.email" />
            <Column source="nickname" label="staff.fields.nickname" />
            <Column source="role" label="staff.fields.role" field={RoleCell} />
            <Column source="status" label="staff.fields.status" field={StatusCell} />
            <Column source="two_step" label="account.two_step.column" field={TwoStepCell} disableSort />
            <Column source="last_sign_in_at" label="staff.fields.last_sign_in_at" field={LastSignInCell} />
          </DataTable>
        )}
      </List>
      {phone && <CreateButton resource={STAFF_RESOURCE} label="staff.add" />}
    </Box>
  );
};

export default StaffList;
