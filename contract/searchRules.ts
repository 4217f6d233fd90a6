// No zod here: the console's search widget needs these, not the request schemas.
import type { CustomerHit, VideoHit } from './search';

export const CUSTOMERS_INDEX = 'Customers';
export const VIDEOS_INDEX = 'Videos';
export const SEARCH_INDEXES = [CUSTOMERS_INDEX, VIDEOS_INDEX] as const;
export type SearchIndexName = (typeof SEARCH_INDEXES)[number];

/** Input and page-size limits, as the spec and docs/search.md set them. */
export const MAX_QUERY_LENGTH = 512;
export const MAX_HITS_PER_PAGE = 1000;
export const DEFAULT_HITS_PER_PAGE = 20;
/** Like Algolia's paginationLimitedTo: hits beyond the first 1,000 of a query are not paged to. */
export const PAGINATION_LIMIT = 1000;
/** Queries per multi-query call. */
export const MAX_QUERIES_PER_CALL = 50;

/** The avatar of a customer hit: Gravatar, keyed by the SHA-256 of the trimmed, lower-cased e-mail. */
export const AVATAR_BASE_URL = 'https://www.gravatar.com/avatar/';
export const AVATAR_SIZE = 60;
/** Gravatar's fixed "mystery person" silhouette when the address has no picture. */
export const AVATAR_FALLBACK = 'mp';

/** Customer hits lacking a first name, last name or e-mail are not shown. */
export const isShowableCustomerHit = (hit: Partial<Pick<CustomerHit, 'first_name' | 'last_name' | 'email_address'>>): boolean =>
  [hit.first_name, hit.last_name, hit.email_address].every((value) => typeof value === 'string' && value.trim() !== '');

export const customerHitPath = (hit: Pick<CustomerHit, 'related_pg_id'>) => `/client/${hit.related_pg_id}?search=customers`;
export const videoHitPath = (hit: Pick<VideoHit, 'related_pg_id'>) => `/videos/video/${hit.related_pg_id}`;
