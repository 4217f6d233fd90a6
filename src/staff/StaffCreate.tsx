import { useState } from 'react';
import { Create, email, maxLength, required, SelectInput, SimpleForm, TextInput, useRedirect, useTranslate } from 'react-admin';
import type { StaffWithPassword } from '@contract/staff';
import { PageHeader } from '../layout/PageHeader';
import { PasswordShownOnce } from './PasswordShownOnce';
import { roleChoices } from './roleChoices';
import { STAFF_RESOURCE } from './staffData';

/** Add a staff member with a role; the server generates the password, which is shown once. */
const StaffCreate = () => {
  const translate = useTranslate();
  const redirect = useRedirect();
  const [created, setCreated] = useState<StaffWithPassword | null>(null);
  return (
    <>
      <PageHeader title={translate('staff.create_title')} />
      <Create
        resource={STAFF_RESOURCE}
        title={false}
        redirect={false}
        mutationOptions={{ onSuccess: (account: StaffWithPassword) => setCreated(account) }}
        sx={{ maxWidth: 640 }}
      >
        <SimpleForm defaultValues={{ role: 'front_desk' }}>
          <TextInput source="email" label="staff.fields.email" type="email" validate={[required(), email(), maxLength(320)]} fullWidth />
          <TextInput source="nickname" label="staff.fields.nickname" helperText="staff.nickname_help" validate={maxLength(100)} fullWidth />
          <SelectInput source="role" label="staff.fields.role" choices={roleChoices} validate={required()} helperText="staff.role_help" />
        </SimpleForm>
      </Create>
      <PasswordShownOnce
        email={created?.email ?? ''}
        password={created?.password ?? null}
        onClose={() => {
          setCreated(null);
          redirect('list', STAFF_RESOURCE);
        }}
      />
    </>
  );
};

export default StaffCreate;
