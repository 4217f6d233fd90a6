import type { ClientLook, EraseBody, Erasure, ErasureStatus } from '@contract/clientData';
import type { DataModule } from '../../providers/dataModule';
import type { HttpClient } from '../../providers/http';
import { apiUrl } from '../../providers/config';

export type ExportFormat = 'json' | 'zip';

/** A client's data rights on their page: export, erasure, who looked. */
export type DataRightsMethods = {
  /** The client's data as a file (GET …/export), with the name the server gave it. */
  exportClientData: (clientId: number, format: ExportFormat) => Promise<{ blob: Blob; filename: string }>;
  eraseClient: (clientId: number, body: EraseBody) => Promise<Erasure>;
  getClientErasure: (clientId: number) => Promise<Erasure | null>;
  getClientLooks: (clientId: number) => Promise<ClientLook[]>;
  /** Records that the caller exported a list of these clients. */
  recordListLooks: (clientIds: number[]) => Promise<void>;
};

const admin = (clientId: number, rest: string) => `/api/admin/v1/clients/${encodeURIComponent(clientId)}/${rest}`;

/** The error an HTTP answer carries, in the words of the server's { message }. */
async function failure(response: Response): Promise<Error & { status: number }> {
  const body = (await response.json().catch(() => null)) as { message?: string } | null;
  return Object.assign(new Error(body?.message ?? response.statusText), { status: response.status });
}

export const dataRightsData = (http: HttpClient) => {
  const json = async <T>(path: string, options?: Parameters<HttpClient>[1]) => (await http(path, options)).json as T;
  return {
    methods: {
      // A zip is binary: read as a Blob, not through the JSON client.
      exportClientData: async (clientId, format) => {
        const response = await fetch(apiUrl(admin(clientId, `export?format=${format}`)), { credentials: 'include' });
        if (!response.ok) throw await failure(response);
        const disposition = response.headers.get('content-disposition') ?? '';
        const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `client-${clientId}-data.${format}`;
        return { blob: await response.blob(), filename };
      },
      eraseClient: (clientId, body) => json<Erasure>(admin(clientId, 'erase'), { method: 'POST', body: JSON.stringify(body) }),
      getClientErasure: async (clientId) => (await json<ErasureStatus>(admin(clientId, 'erasure'))).erasure,
      getClientLooks: async (clientId) => (await json<{ looks: ClientLook[] }>(admin(clientId, 'looks'))).looks,
      recordListLooks: async (clientIds) => {
        if (clientIds.length > 0) await http('/api/admin/v1/client-looks', { method: 'POST', body: JSON.stringify({ client_ids: clientIds }) });
      },
    },
  } satisfies DataModule<DataRightsMethods>;
};
