import simpleRestProvider from 'ra-data-simple-rest';
import type { DataProvider } from 'react-admin';
import type { ChangeOwnPasswordResponse, StaffAccount, StaffWithPassword } from '@contract/staff';
import type { DataModule } from '../providers/dataModule';
import type { HttpClient } from '../providers/http';

export const STAFF_RESOURCE = 'staff';

// A type alias (not an interface) so it fits DataModule's string-keyed method map.
export type StaffMethods = {
  /** A new generated password for another staff member (shown once); their sessions end. */
  resetStaffPassword: (id: number) => Promise<StaffWithPassword>;
  /** The signed-in staff member's own password, with the current one; how many other sessions ended. */
  changeOwnPassword: (body: { current_password: string; new_password: string }) => Promise<ChangeOwnPasswordResponse>;
};

const post = (body?: unknown) => ({ method: 'POST', ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

/** The staff screen (owners) in ra-data-simple-rest's dialect, and the user menu's 'Change password'. */
export const staffData = (http: HttpClient) => {
  const admin: DataProvider = simpleRestProvider('/api/admin/v1', (url, options) => http(url, options));
  return {
    resources: {
      [STAFF_RESOURCE]: {
        getList: admin.getList,
        getOne: admin.getOne,
        getMany: admin.getMany,
        // The answer carries the generated password: the create page shows it once.
        create: admin.create,
        // Only what the screen changes; the server ignores the rest of the record anyway.
        update: (resource, params) => {
          const { role, status } = params.data as Partial<StaffAccount>;
          return admin.update(resource, { ...params, data: { role, status } });
        },
      },
    },
    methods: {
      resetStaffPassword: async (id) => (await http(`/api/admin/v1/staff/${encodeURIComponent(id)}/reset-password`, post())).json as StaffWithPassword,
      changeOwnPassword: async (body) => (await http('/api/admin/v1/account/password', post(body))).json as ChangeOwnPasswordResponse,
    },
  } satisfies DataModule<StaffMethods>;
};
