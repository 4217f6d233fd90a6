import { DateInput, NumberInput, SelectInput, TextInput, useGetList, type InputProps } from 'react-admin';
import { AUDIT_ACTIONS, type StaffMember } from '@contract/audit';

/** The staff accounts as choices; failed sign-ins under other e-mails are found with Search. */
const StaffInput = (props: Omit<InputProps, 'source'> & { source: string }) => {
  const { data = [] } = useGetList<StaffMember>('audit-staff', { pagination: { page: 1, perPage: 500 }, sort: { field: 'email', order: 'ASC' } });
  return <SelectInput {...props} choices={data.map((staff) => ({ id: staff.email, name: staff.email }))} />;
};

export const auditFilters = (translate: (key: string) => string) => [
  <StaffInput key="staff" source="staff_email" label="audit.filters.staff" alwaysOn />,
  <SelectInput
    key="action"
    source="action"
    label="audit.filters.action"
    choices={AUDIT_ACTIONS.map((action) => ({ id: action, name: translate(`audit.actions.${action}`) }))}
    alwaysOn
  />,
  <NumberInput key="client" source="client_id" label="audit.filters.client" min={1} alwaysOn sx={{ width: 130 }} />,
  <DateInput key="from" source="from" label="audit.filters.from" alwaysOn />,
  <DateInput key="to" source="to" label="audit.filters.to" alwaysOn />,
  <TextInput key="q" source="q" label="audit.filters.search" />,
];
