import type { DataRequest, NewDataRequest, RetentionSettings } from '@contract/clientData';
import type { DataModule } from '../providers/dataModule';
import type { HttpClient } from '../providers/http';

export const DATA_REQUESTS_PATH = '/data-requests';

/** The Data requests page: access and erasure requests, and how long data is kept. */
export type DataRequestsMethods = {
  getDataRequests: (options: { openOnly: boolean }) => Promise<DataRequest[]>;
  logDataRequest: (request: NewDataRequest) => Promise<DataRequest>;
  markDataRequestHandled: (id: number) => Promise<DataRequest>;
  getRetention: () => Promise<RetentionSettings>;
  saveRetention: (settings: RetentionSettings) => Promise<RetentionSettings>;
};

export const dataRequestsData = (http: HttpClient) => {
  const json = async <T>(path: string, options?: Parameters<HttpClient>[1]) => (await http(path, options)).json as T;
  return {
    methods: {
      getDataRequests: ({ openOnly }) => json<DataRequest[]>(`/api/admin/v1/data-requests${openOnly ? '?open=true' : ''}`),
      logDataRequest: (request) => json<DataRequest>('/api/admin/v1/data-requests', { method: 'POST', body: JSON.stringify(request) }),
      markDataRequestHandled: (id) => json<DataRequest>(`/api/admin/v1/data-requests/${encodeURIComponent(id)}/handled`, { method: 'POST', body: '{}' }),
      getRetention: () => json<RetentionSettings>('/api/admin/v1/retention'),
      saveRetention: (settings) => json<RetentionSettings>('/api/admin/v1/retention', { method: 'PUT', body: JSON.stringify(settings) }),
    },
  } satisfies DataModule<DataRequestsMethods>;
};
