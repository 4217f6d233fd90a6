import type { MessageKey } from '../providers/i18nProvider';

/** Spec §2: the four client lists; `id` is the API's listId (GET /api/client/v1/clients/{listId}). */
export interface ClientListDefinition {
  id: 1 | 2 | 3 | 4;
  /** URL segment under /clients/. */
  slug: string;
  titleKey: MessageKey;
}

export const clientLists: readonly ClientListDefinition[] = [
  { id: 1, slug: 'all', titleKey: 'clients.titles.all' },
  { id: 2, slug: 'mindbody', titleKey: 'clients.titles.mindbody' },
  { id: 3, slug: 'active', titleKey: 'clients.titles.active' },
  { id: 4, slug: 'new', titleKey: 'clients.titles.new' },
];

export const clientListPath = (list: Pick<ClientListDefinition, 'slug'>) => `/clients/${list.slug}`;
export const clientPath = (id: string | number) => `/client/${encodeURIComponent(String(id))}`;
