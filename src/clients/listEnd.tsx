import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { useListContext } from 'react-admin';
import type { ClientListMeta } from './clientListData';

/**
 * Which page from the end of the list is shown (1 = the last), or none: the console reads the end
 * of a large list as the start of the other order (docs/features.md#clients). Kept beside
 * react-admin's page, not in the URL: a new sort, filter or page size starts from the top again.
 */
interface ListEnd {
  fromEnd: number | undefined;
  setFromEnd(fromEnd: number | undefined): void;
}

const ListEndContext = createContext<ListEnd>({ fromEnd: undefined, setFromEnd: () => undefined });

export const useListEnd = () => useContext(ListEndContext);

export function useListEndState(): ListEnd {
  const [fromEnd, setFromEnd] = useState<number | undefined>();
  return { fromEnd, setFromEnd };
}

/** Around the whole <List>: its pagination reads and moves the end page too. */
export const ListEndProvider = ({ value, children }: { value: ListEnd; children: ReactNode }) => (
  <ListEndContext.Provider value={value}>{children}</ListEndContext.Provider>
);

/** Inside the <List>: back to the top when the sort, filter or page size changes, or when the end page could not be reached. */
export function LeaveEndOnNewQuery() {
  const { sort, filterValues, perPage, meta } = useListContext();
  const { fromEnd, setFromEnd } = useListEnd();
  const query = JSON.stringify([sort, filterValues, perPage]);
  const previous = useRef(query);
  useEffect(() => {
    if (previous.current === query) return;
    previous.current = query;
    setFromEnd(undefined);
  }, [query, setFromEnd]);
  const unreachable = (meta as ClientListMeta | undefined)?.unreachable === true;
  useEffect(() => {
    if (unreachable && fromEnd !== undefined) setFromEnd(undefined);
  }, [unreachable, fromEnd, setFromEnd]);
  return null;
}
