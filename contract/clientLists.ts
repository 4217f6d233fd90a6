/**
 * The four client lists, defined once for the server and the console. No zod here: the
 * console imports this eagerly.
 *
 * - `id`: the API's listId (GET /api/client/v1/clients/{listId}).
 * - `slug`: the console's route (/clients/<slug>); also names the page title, `clients.titles.<slug>`
 *   in src/i18n/en.ts.
 * - `name`: how the API's messages name the list.
 */
export const CLIENT_LIST_DEFINITIONS = [
  { id: 1, slug: 'all', name: 'all' },
  { id: 2, slug: 'mindbody', name: 'MindBody' },
  { id: 3, slug: 'active', name: 'active' },
  { id: 4, slug: 'new', name: 'new' },
] as const;

export type ClientListDefinition = (typeof CLIENT_LIST_DEFINITIONS)[number];
export type ClientListId = ClientListDefinition['id'];

/** The slug of each list by id. */
export const CLIENT_LISTS = Object.fromEntries(CLIENT_LIST_DEFINITIONS.map((list) => [list.id, list.slug])) as {
  [L in ClientListDefinition as L['id']]: L['slug'];
};

export const clientListById = (id: number): ClientListDefinition | undefined => CLIENT_LIST_DEFINITIONS.find((list) => list.id === id);
