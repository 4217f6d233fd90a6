import { useMemo } from 'react';
import { Configure, InstantSearch } from 'react-instantsearch';
import { CUSTOMERS_INDEX, DEFAULT_HITS_PER_PAGE } from '@contract/searchRules';
import type { ConsoleConfig } from '../providers/config';
import { createSearchClient } from './searchClient';
import { STALLED_SEARCH_DELAY_MS } from './searchRules';
import { CustomerSearchPanel } from './CustomerSearchPanel';
import type { SearchForSelectProps } from './SearchForSelect';

export interface CustomerSearchProps {
  config: Pick<ConsoleConfig, 'algolia' | 'apiBaseUrl' | 'serverPrefix'>;
  /** Typed into the stand-in box while this loaded. */
  initialValue?: string;
  autoFocus?: boolean;
  /** What the stand-in's 'Search for:' was asked meanwhile (focus, open). */
  searchFor?: SearchForSelectProps;
}

/** InstantSearch on the Customers index, 20 hits a page, 'stalled' after 200 ms. */
const CustomerSearch = ({ config, initialValue = '', autoFocus = false, searchFor }: CustomerSearchProps) => {
  const searchClient = useMemo(() => createSearchClient(config), [config]);
  if (!searchClient) return null;
  return (
    <InstantSearch
      searchClient={searchClient}
      indexName={CUSTOMERS_INDEX}
      stalledSearchDelay={STALLED_SEARCH_DELAY_MS}
      future={{ preserveSharedStateOnUnmount: true }}
    >
      <Configure hitsPerPage={DEFAULT_HITS_PER_PAGE} />
      <CustomerSearchPanel initialValue={initialValue} autoFocus={autoFocus} searchFor={searchFor} />
    </InstantSearch>
  );
};

export default CustomerSearch;
