import simpleRestProvider from 'ra-data-simple-rest';
import type { DataProvider } from 'react-admin';
import type { AuditEntry, AuditFilter } from '@contract/audit';
import type { DataModule } from '../providers/dataModule';
import type { HttpClient } from '../providers/http';

export const AUDIT_RESOURCE = 'audit';

/** Client history shows this many newest entries; the Audit Log has the rest. */
export const CLIENT_HISTORY_LIMIT = 200;

// A type alias (not an interface) so it fits DataModule's string-keyed method map.
export type AuditMethods = {
  /** The filtered log as CSV text (GET /api/admin/v1/audit/export), newest first. */
  exportAuditCsv: (filter: AuditFilter) => Promise<string>;
  /** One client's entries of the audit log, newest first. */
  getClientHistory: (clientId: number) => Promise<AuditEntry[]>;
};

/** Drops react-admin's empty filter values, which the server would read as "match nothing". */
export const cleanFilter = (filter: Record<string, unknown>): AuditFilter =>
  Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== '' && value !== null && value !== undefined)) as AuditFilter;

export const auditData = (http: HttpClient) => {
  // Our /api/admin/v1 extensions speak ra-data-simple-rest's dialect (contract/raSimpleRest.ts).
  const admin: DataProvider = simpleRestProvider('/api/admin/v1', (url, options) => http(url, options));
  return {
    resources: {
      [AUDIT_RESOURCE]: {
        getList: (resource, params) => admin.getList(resource, { ...params, filter: cleanFilter(params.filter ?? {}) }),
        getOne: admin.getOne,
        getMany: admin.getMany,
      },
      'audit-staff': { getList: admin.getList },
    },
    methods: {
      exportAuditCsv: async (filter) => {
        const query = new URLSearchParams({ filter: JSON.stringify(cleanFilter(filter)) });
        const { body } = await http(`/api/admin/v1/audit/export?${query}`, { headers: new Headers({ Accept: 'text/csv' }) });
        return body;
      },
      getClientHistory: async (clientId) => {
        const query = new URLSearchParams({
          filter: JSON.stringify({ client_id: clientId }),
          sort: JSON.stringify(['at', 'DESC']),
          range: JSON.stringify([0, CLIENT_HISTORY_LIMIT - 1]),
        });
        const { json } = await http(`/api/admin/v1/audit?${query}`);
        return json as AuditEntry[];
      },
    },
  } satisfies DataModule<AuditMethods>;
};
