import simpleRestProvider from 'ra-data-simple-rest';
import type { DataProvider } from 'react-admin';
import type { EndOtherSessionsResponse } from '@contract/sessions';
import type { DataModule } from '../providers/dataModule';
import type { HttpClient } from '../providers/http';

export const SESSIONS_RESOURCE = 'sessions';

// A type alias (not an interface) so it fits DataModule's string-keyed method map.
export type SessionsMethods = {
  /** Ends every session of the signed-in staff member but this one; how many ended. */
  endOtherSessions: () => Promise<number>;
};

/** 'My sessions': the signed-in staff member's own sessions (GET/DELETE /api/admin/v1/sessions). */
export const sessionsData = (http: HttpClient) => {
  const admin: DataProvider = simpleRestProvider('/api/admin/v1', (url, options) => http(url, options));
  return {
    resources: { [SESSIONS_RESOURCE]: { getList: admin.getList, delete: admin.delete } },
    methods: {
      endOtherSessions: async () => {
        const { json } = await http('/api/admin/v1/sessions/end-others', { method: 'POST' });
        return (json as EndOtherSessionsResponse).ended;
      },
    },
  } satisfies DataModule<SessionsMethods>;
};
