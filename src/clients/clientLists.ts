import { CLIENT_LIST_DEFINITIONS, type ClientListDefinition as ContractClientList } from '@contract/clientLists';
import type { MessageKey } from '../providers/i18nProvider';

/** A client list of contract/clientLists.ts with its page title (clients.titles.<slug> in src/i18n/en.ts). */
export interface ClientListDefinition {
  id: ContractClientList['id'];
  /** URL segment under /clients/; typed from the contract, so a slug written elsewhere (the sidebar) is checked. */
  slug: ContractClientList['slug'];
  titleKey: MessageKey;
}

export const clientLists: readonly ClientListDefinition[] = CLIENT_LIST_DEFINITIONS.map((list) => ({
  id: list.id,
  slug: list.slug,
  titleKey: `clients.titles.${list.slug}` satisfies MessageKey,
}));

export const clientListPath = (list: Pick<ClientListDefinition, 'slug'>) => `/clients/${list.slug}`;
export const clientPath = (id: string | number) => `/client/${encodeURIComponent(String(id))}`;

/** A client list's sort and page size before the user picks others (ClientListPage, and its first page fetched early). */
export const CLIENT_LIST_DEFAULTS = { sort: { field: 'id', order: 'ASC' as const }, perPage: 25 };
