import { HttpError, type GetListParams, type GetOneParams, type GetOneResult } from 'react-admin';
import type { AccessLevel, VideoOptionGroup } from '@contract/accessLevels';
import type { Client, ClientDetailsResponse, Contract, DebugRecord, OptionVideo, Purchase, RecentlyViewedVideo } from '@contract/clients';
import type {
  ContractSyncResponse,
  FavoritesUpdateResponse,
  PushNotificationResponse,
  PushRecord,
  UpdateAccessLevelBody,
  UpdateAccessLevelResponse,
} from '@contract/clientActions';
import { FAVORITES_CATEGORY_ID } from '@contract/clientRules';
import type { CrudMethods, DataModule } from '../providers/dataModule';
import type { HttpClient } from '../providers/http';
import { clientLists, type ClientListDefinition } from './clientLists';
import { clientListReader, type ClientRecord } from './clientListData';

export type { ClientRecord, ClientListMeta, ClientListQueryMeta } from './clientListData';

/** What the client-details calls identify a client by. */
export type ClientKey = Pick<Client, 'email_address' | 'mb_client_id' | 'mb_site_id'>;

export const clientListResource = (list: Pick<ClientListDefinition, 'slug'>) => `clients-${list.slug}`;
/** The resource of one client (getOne → client-details). */
export const CLIENT_RESOURCE = 'clients';

export const DEBUG_PAGE = 1;
export const DEBUG_LIMIT = 10;

const toRecord = (client: Client): ClientRecord => ({ ...client, id: client._id });

// The spec's console puts the values in the path as they are, so a missing one travels as 'null'
// (an empty one too: an empty path segment would not reach the route at all).
const segment = (value: string | number | null | undefined) =>
  encodeURIComponent(value === null || value === undefined || value === '' ? 'null' : String(value));

export type ClientsMethods = {
  getClientRecentVideos: (client: ClientKey) => Promise<RecentlyViewedVideo[]>;
  getClientFavoriteVideos: (client: ClientKey) => Promise<OptionVideo[]>;
  getClientPurchases: (client: ClientKey) => Promise<Purchase[]>;
  getClientDebugInfo: (client: ClientKey) => Promise<DebugRecord[]>;
  getClientContracts: (client: ClientKey) => Promise<Contract[]>;
  /** The videos a level may watch, grouped by category (for the favorites modal). */
  getVideoOptions: (vodAccessLevel: number | string) => Promise<VideoOptionGroup[]>;
  getAccessLevels: () => Promise<AccessLevel[]>;
  /** Adds or removes a favorite; a non-empty `errors` means nothing changed. */
  updateClientFavorite: (client: ClientKey, vimeoVideoId: string, updateType: 'add' | 'remove') => Promise<FavoritesUpdateResponse>;
  /** Grants a level until a date; rejects (HttpError with the server's message) when refused. */
  updateClientAccessLevel: (body: UpdateAccessLevelBody) => Promise<UpdateAccessLevelResponse>;
  /** Pushes to the client's devices; the same key twice pushes once. */
  pushNotification: (client: ClientKey, notification: { title: string; body: string }, idempotencyKey: string) => Promise<PushNotificationResponse>;
  /** Fetches the client's contracts from MindBody and stores them. */
  syncClientContracts: (client: ClientKey) => Promise<ContractSyncResponse>;
  /** The client's most recent pushes, newest first. */
  getClientPushes: (clientId: number) => Promise<PushRecord[]>;
};

export const RECENT_PUSHES = 10;

export const clientsData = (http: HttpClient) => {
  const json = async <T>(path: string, options?: Parameters<HttpClient>[1]) => (await http(path, options)).json as T;
  const identity = (client: ClientKey) => JSON.stringify({ email: client.email_address, mb_client_id: client.mb_client_id });
  const getClientList = clientListReader(http);

  const listResources = Object.fromEntries(
    clientLists.map((list) => [
      clientListResource(list),
      // react-admin types getList generically over any record; these answer ClientRecords.
      { getList: ((_: string, params: GetListParams) => getClientList(list.id, params)) as CrudMethods['getList'] },
    ]),
  );

  async function getClient(_: string, params: GetOneParams): Promise<GetOneResult<ClientRecord>> {
    const body = await json<ClientDetailsResponse>(`/api/client/v1/client-details/${segment(params.id)}`);
    const client = body.client?.[0];
    if (!client) throw new HttpError(`No client with id ${params.id}`, 404, body);
    return { data: toRecord(client) };
  }

  const resources: Record<string, Partial<CrudMethods>> = {
    ...listResources,
    [CLIENT_RESOURCE]: { getOne: getClient as CrudMethods['getOne'] },
  };

  return {
    resources,
    methods: {
      getClientRecentVideos: async (client) =>
        (await json<{ videos: RecentlyViewedVideo[] }>('/api/client/v1/client-details/recently-viewed-videos', { method: 'POST', body: identity(client) }))
          .videos,
      getClientFavoriteVideos: async (client) =>
        (await json<{ videos: OptionVideo[] }>('/api/client/v1/client-details/favorites-videos', { method: 'POST', body: identity(client) })).videos,
      getClientPurchases: async (client) =>
        (
          await json<{ purchases: Purchase[] }>(
            `/api/client/v1/client-details/${segment(client.mb_site_id)}/${segment(client.mb_client_id)}/purchases?email=${encodeURIComponent(client.email_address ?? '')}`,
          )
        ).purchases,
      getClientDebugInfo: async (client) =>
        (
          await json<{ debugInfo: DebugRecord[] }>(
            `/api/client/v1/client-details/${segment(client.mb_site_id)}/${segment(client.mb_client_id)}/${segment(client.email_address)}/debug?page=${DEBUG_PAGE}&limit=${DEBUG_LIMIT}`,
          )
        ).debugInfo,
      getClientContracts: async (client) =>
        (await json<{ contracts: Contract[] }>(`/api/client/v1/client-details/${segment(client.mb_site_id)}/${segment(client.mb_client_id)}/contracts`))
          .contracts,
      getVideoOptions: async (vodAccessLevel) => (await json<{ videos: VideoOptionGroup[] }>(`/api/client/v1/video-options/${segment(vodAccessLevel)}`)).videos,
      getAccessLevels: async () => (await json<{ levels: AccessLevel[] }>('/api/client/v1/vod-access-levels')).levels,
      updateClientFavorite: (client, vimeoVideoId, updateType) =>
        json<FavoritesUpdateResponse>('/api/client/v1/client-details/favorites-videos-update', {
          method: 'POST',
          body: JSON.stringify({
            vimeo_video_id: vimeoVideoId,
            email_address: client.email_address,
            mb_client_id: client.mb_client_id,
            video_category_id: FAVORITES_CATEGORY_ID,
            update_type: updateType,
          }),
        }),
      updateClientAccessLevel: (body) =>
        json<UpdateAccessLevelResponse>('/api/client/v1/client-details/update-access-level', { method: 'POST', body: JSON.stringify(body) }),
      pushNotification: (client, notification, idempotencyKey) =>
        json<PushNotificationResponse>('/api/client/v1/client-details/push-notification', {
          method: 'POST',
          headers: new Headers({ 'Idempotency-Key': idempotencyKey }),
          body: JSON.stringify({ notification, mb_client_id: client.mb_client_id, email_address: client.email_address }),
        }),
      syncClientContracts: (client) => json<ContractSyncResponse>(`/api/v1/sync/contracts/${segment(client.mb_site_id)}/${segment(client.mb_client_id)}`),
      getClientPushes: async (clientId) =>
        json<PushRecord[]>(
          `/api/admin/v1/pushes?${new URLSearchParams({ filter: JSON.stringify({ client_id: clientId }), range: JSON.stringify([0, RECENT_PUSHES - 1]) })}`,
        ),
    },
  } satisfies DataModule<ClientsMethods>;
};
