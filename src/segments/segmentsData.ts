import simpleRestProvider from 'ra-data-simple-rest';
import type { DataProvider } from 'react-admin';
import type { ClientFilter } from '@contract/clientFilterRules';
import type { AtRiskPage, Segment, SegmentPreview } from '@contract/segments';
import type { ContactBody, ContactEntry, SnoozeBody } from '@contract/contacts';
import type { DataModule } from '../providers/dataModule';
import type { HttpClient } from '../providers/http';

export const SEGMENTS_RESOURCE = 'segments';
export type SegmentRecord = Segment;

// A type alias (not an interface) so it fits DataModule's string-keyed method map.
export type SegmentsMethods = {
  /** How many clients a filter selects now, and the first five. */
  previewSegment: (filter: ClientFilter) => Promise<SegmentPreview>;
  /** One page of the at-risk list, most valuable first. */
  getAtRisk: (page: number, perPage: number) => Promise<AtRiskPage>;
  /** Log a call, a text or a message left (the at-risk list's follow-up; on the client's timeline). */
  logContact: (clientId: number, body: ContactBody) => Promise<ContactEntry>;
  /** Take a client off the at-risk list for some days (on the client's timeline). */
  snoozeClient: (clientId: number, body: SnoozeBody) => Promise<ContactEntry>;
};

/** Saved segments in ra-data-simple-rest's dialect, their preview and the at-risk list (docs/features.md#segments). */
export const segmentsData = (http: HttpClient) => {
  const admin: DataProvider = simpleRestProvider('/api/admin/v1', (url, options) => http(url, options));
  return {
    resources: {
      [SEGMENTS_RESOURCE]: {
        getList: admin.getList,
        getOne: admin.getOne,
        getMany: admin.getMany,
        create: admin.create,
        // Only what a segment is; the server refuses other fields.
        update: (resource, params) => {
          const { name, filter } = params.data as Partial<Segment>;
          return admin.update(resource, { ...params, data: { name, filter } });
        },
        delete: admin.delete,
      },
    },
    methods: {
      previewSegment: async (filter) =>
        (await http('/api/admin/v1/segments/preview', { method: 'POST', body: JSON.stringify({ filter }) })).json as SegmentPreview,
      getAtRisk: async (page, perPage) =>
        (await http(`/api/admin/v1/at-risk?${new URLSearchParams({ page: String(page), perPage: String(perPage) })}`)).json as AtRiskPage,
      logContact: async (clientId, body) =>
        (await http(`/api/admin/v1/clients/${clientId}/contacts`, { method: 'POST', body: JSON.stringify(body) })).json as ContactEntry,
      snoozeClient: async (clientId, body) =>
        (await http(`/api/admin/v1/clients/${clientId}/snooze`, { method: 'POST', body: JSON.stringify(body) })).json as ContactEntry,
    },
  } satisfies DataModule<SegmentsMethods>;
};
