import { createContext, useContext } from 'react';
import type { ClientFilter } from '@contract/clientFilterRules';

/** What a list selects before its filters: the list's own rule and a segment's filter (ClientListPage provides it). */
export const BulkScope = createContext<ClientFilter>({});
export const useBulkScope = () => useContext(BulkScope);

/** The clients a bulk action reaches: the selected ids, or every client the list's filter selects. */
export type BulkTarget = { client_ids: number[] } | { filter: ClientFilter };
