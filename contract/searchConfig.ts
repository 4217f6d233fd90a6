// No zod here: the console reads this at start, before any lazy chunk (keeps zod out of its first download).
/**
 * The server puts the search settings into the console's page as JSON in this element (the
 * embedded default needs no build-time VITE_ALGOLIA_*). host 'self' = our own endpoint, on the
 * console's origin; '' = hosted Algolia's own hosts.
 */
export const RUNTIME_CONFIG_ELEMENT_ID = 'studio-runtime-config';
export const SEARCH_HOST_SELF = 'self';
export interface RuntimeConfig {
  algolia?: { appId?: string; searchKey?: string; host?: string };
  /** STUDIO_TIME_ZONE: the console writes dates and times in it. */
  time_zone?: string;
}
