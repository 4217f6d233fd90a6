import simpleRestProvider from 'ra-data-simple-rest';
import type { DataProvider } from 'react-admin';
import type { AccessLevelsResponse } from '@contract/accessLevels';
import type { EndOverrideResponse } from '@contract/overrides';
import type { z } from 'zod';
import type { DataModule } from '../providers/dataModule';
import type { HttpClient } from '../providers/http';

/** The running overrides (Clients › Overrides), GET /api/admin/v1/overrides in ra-data-simple-rest's dialect. */
export const OVERRIDES_RESOURCE = 'overrides';

export type OverridesMethods = {
  /** The levels and how far ahead an override may end (OVERRIDE_MAX_DAYS), for the level modal. */
  getOverrideChoices: () => Promise<z.infer<typeof AccessLevelsResponse>>;
  /** Ends the client's running override now; rejects (HttpError) when none runs (409). */
  endClientOverride: (clientId: number) => Promise<EndOverrideResponse>;
};

export const overridesData = (http: HttpClient) => {
  const admin: DataProvider = simpleRestProvider('/api/admin/v1', (url, options) => http(url, options));
  return {
    resources: { [OVERRIDES_RESOURCE]: { getList: admin.getList } },
    methods: {
      getOverrideChoices: async () => (await http('/api/client/v1/vod-access-levels')).json as z.infer<typeof AccessLevelsResponse>,
      endClientOverride: async (clientId) =>
        (await http(`/api/admin/v1/clients/${encodeURIComponent(clientId)}/override`, { method: 'DELETE' })).json as EndOverrideResponse,
    },
  } satisfies DataModule<OverridesMethods>;
};
