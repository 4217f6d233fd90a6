import { z } from 'zod';
import { CLIENT_LIST_DEFINITIONS, type ClientListId } from './clientLists';
import {
  CLIENT_SORT_FIELDS,
  DEFAULT_PER_PAGE,
  EXPORT_WITHOUT_REAUTH_MAX,
  MAX_DEBUG_LIMIT,
  MAX_PER_PAGE,
  NUMBERED_LIST_MAX,
  hasMindBodyId,
  isPlaceholder,
} from './clientRules';
import { ClientFilterQuery } from './clientFilter';
import { wholeNumber } from './ids';

export * from './clientRules';
export * from './clientFilter';

/** A client as every client call answers it. */
export const Client = z.object({
  _id: z.number().int().describe("The client's id; /client/{_id} in the console"),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  email_address: z.string().nullable(),
  mb_client_id: z.string().nullable(),
  mb_site_id: z.number().int().nullable(),
  vod_access_level: z.number().int().nullable().describe('sort_order of the access level'),
  name: z.string().nullable().describe('Name of the access level, e.g. VOD | BASIC'),
  client_status: z.string().describe("MindBody status; 'Pending' when the client has none"),
  first_login: z.iso.datetime().nullable(),
  admin_updated_expiration: z.iso.datetime().nullable().describe('End of an admin override of the access level'),
});
export type Client = z.infer<typeof Client>;

export const ClientListParams = z.object({
  listId: z.enum(CLIENT_LIST_DEFINITIONS.map((list) => String(list.id)) as [`${ClientListId}`, ...`${ClientListId}`[]], {
    message: 'Unknown client list: use 1 (all), 2 (MindBody), 3 (active) or 4 (new)',
  }),
});

const upper = (value: unknown) => (typeof value === 'string' ? value.toUpperCase() : value);

export const ClientListQuery = z.object({
  page: wholeNumber({ min: 1, max: 1_000_000, message: 'page must be a whole number from 1 to 1000000' })
    .optional()
    .describe(
      `1-based page. Without \`after\`, a page beyond the first is served by number only in a list (with its filters) of at most ${NUMBERED_LIST_MAX.toLocaleString('en-US')} clients, and refused (400) in a larger one; with \`after\` it only numbers the page`,
    ),
  perPage: wholeNumber({ min: 1, max: Number.MAX_SAFE_INTEGER, message: 'perPage must be a whole number from 1' })
    .transform((value) => Math.min(value, MAX_PER_PAGE))
    .optional()
    .describe(`Rows per page, default ${DEFAULT_PER_PAGE}; values above ${MAX_PER_PAGE} are capped to ${MAX_PER_PAGE}`),
  sort: z
    .enum(CLIENT_SORT_FIELDS, { message: `sort must be one of ${CLIENT_SORT_FIELDS.join(', ')}` })
    .optional()
    .describe('Sort field, default _id'),
  order: z
    .preprocess(upper, z.enum(['ASC', 'DESC'], { message: 'order must be ASC or DESC' }))
    .optional()
    .describe('Sort order, default ASC. The last pages of a list are its first pages in the other order'),
  ...ClientFilterQuery.shape,
  export: z
    .enum(['true'], { message: 'export must be true (or left out)' })
    .optional()
    .describe(
      `Set by the console's export on each page it reads: a list (with its filters) of more than ${EXPORT_WITHOUT_REAUTH_MAX.toLocaleString('en-US')} clients then needs a recent re-authentication (403 { reauth_required: true } otherwise)`,
    ),
  after: z
    .string()
    .max(400, 'after is not a cursor this server issued')
    .optional()
    .describe('Keyset cursor: `next_cursor` of the previous page. The page then starts after that row, at any depth, without an offset'),
});
export type ClientListQuery = z.infer<typeof ClientListQuery>;

export const UnpagedClientList = z.object({ clients: z.array(Client) });
export type UnpagedClientList = z.infer<typeof UnpagedClientList>;

export const ClientListPage = z.object({
  clients: z.array(Client),
  total: z
    .number()
    .int()
    .describe(
      "Exact up to 10,000 clients (and whenever the page had to count its matches); a larger list answers the planner's estimate (total_is_estimate), exact again on its last page",
    ),
  total_is_estimate: z.boolean(),
  page: z.number().int(),
  perPage: z.number().int(),
  next_cursor: z.string().nullable().describe('Pass as `after` for the next page; null on the last page'),
});
export type ClientListPage = z.infer<typeof ClientListPage>;

/** A paged answer when any paging/sorting/filter parameter is sent, otherwise the whole (capped) list. */
export const ClientListResponse = z.union([ClientListPage, UnpagedClientList]);

export const ClientDetailsParams = z.object({
  id: z
    .string()
    .regex(/^[1-9][0-9]{0,14}$/, 'Client id must be a positive whole number')
    .transform(Number),
});

export const ClientDetailsResponse = z.object({ client: z.array(Client).length(1) });
export type ClientDetailsResponse = z.infer<typeof ClientDetailsResponse>;

/** Body of the two POST calls that identify a client by e-mail and/or MindBody id. */
export const ClientIdentityBody = z
  .object({
    email: z.string().trim().max(320, 'email must be at most 320 characters').nullish(),
    mb_client_id: z.string().trim().max(64, 'mb_client_id must be at most 64 characters').nullish(),
  })
  .refine((body) => !isPlaceholder(body.email) || (!isPlaceholder(body.mb_client_id) && hasMindBodyId(body.mb_client_id)), {
    message: "Send the client's email or mb_client_id (a MindBody id longer than 2 characters)",
  });
export type ClientIdentityBody = z.infer<typeof ClientIdentityBody>;

export const RecentlyViewedResponse = z.object({
  videos: z.array(z.object({ vimeo_video_title: z.string(), viewed_at: z.iso.datetime() })),
});
export type RecentlyViewedVideo = z.infer<typeof RecentlyViewedResponse>['videos'][number];

export const OptionVideo = z.object({
  vimeo_video_id: z.string().nullable(),
  title: z.string(),
  instructor: z.string().nullable(),
  duration: z.number().int().describe('Seconds'),
});
export type OptionVideo = z.infer<typeof OptionVideo>;

export const FavoritesResponse = z.object({ videos: z.array(OptionVideo) });

/** Path parameters of the sub-resource calls: values the console had at hand, possibly 'null'/'undefined'. */
export const ClientKeyParams = z.object({
  siteId: z.string().max(32),
  mbClientId: z.string().max(64),
});

export const PurchasesQuery = z.object({ email: z.string().trim().max(320).optional() });

export const Purchase = z.object({
  revenue_cat_user_id: z.string().nullable(),
  name: z.string().nullable().describe('Access level purchased'),
  subscription_identifier: z.string().nullable(),
  upsell_source: z.string().nullable(),
  purchased_at: z.iso.datetime().nullable(),
  expires_at: z.iso.datetime().nullable(),
  subscription_status: z.string().nullable(),
  environment: z
    .string()
    .nullable()
    .describe("RevenueCat's store environment, SANDBOX or PRODUCTION; a SANDBOX purchase gives no access unless REVENUECAT_ACCEPT_SANDBOX"),
});
export type Purchase = z.infer<typeof Purchase>;

export const PurchasesResponse = z.object({ errors: z.array(z.unknown()), purchases: z.array(Purchase) });

export const DebugParams = ClientKeyParams.extend({ email: z.string().max(320) });

export const DebugQuery = z.object({
  page: wholeNumber({ min: 1, max: 100_000, message: 'page must be a whole number from 1 to 100000' }).default(1),
  limit: wholeNumber({ min: 1, max: Number.MAX_SAFE_INTEGER, message: 'limit must be a whole number from 1' })
    .default(10)
    .transform((value) => Math.min(value, MAX_DEBUG_LIMIT))
    .describe(`Records per page; capped to ${MAX_DEBUG_LIMIT}`),
});

export const DebugRecord = z.object({
  email: z.string().nullable(),
  mb_client_id: z.string().nullable(),
  app_access_level: z.string().nullable(),
  firebase_token_new: z.string().nullable(),
  firebase_token_current: z.string().nullable(),
  platform: z.string().nullable(),
  platform_version: z.string().nullable(),
  is_ipad: z.boolean().nullable(),
  screen_width: z.number().nullable(),
  screen_height: z.number().nullable(),
  device_width: z.number().nullable(),
  device_height: z.number().nullable(),
  ip: z.string().nullable(),
  app_version: z.string().nullable(),
  sent_at: z.iso.datetime().nullable(),
  device_constants: z.unknown(),
  network_info: z.unknown(),
});
export type DebugRecord = z.infer<typeof DebugRecord>;

export const DebugResponse = z.object({ debugInfo: z.array(DebugRecord) });

export const AutopayEvent = z.object({ ChargeAmount: z.number(), ScheduleDate: z.string() });
export type AutopayEvent = z.infer<typeof AutopayEvent>;

export const Contract = z.object({
  agreement_date: z.iso.datetime().nullable(),
  autopay_status: z.string().nullable(),
  contract_name: z.string().nullable(),
  end_date: z.iso.datetime().nullable(),
  id: z.number().int().describe("MindBody's ClientContract.Id (this sale)"),
  original_location_id: z.number().int().nullable(),
  start_date: z.iso.datetime().nullable(),
  site_id: z.number().int().nullable(),
  upcoming_autopay_events: z.array(AutopayEvent),
  contract_id: z.number().int().nullable().describe("MindBody's ContractID (the template)"),
  termination_date: z.iso.datetime().nullable(),
});
export type Contract = z.infer<typeof Contract>;

export const ContractsResponse = z.object({ errors: z.array(z.unknown()), contracts: z.array(Contract) });
