import { lazy, Suspense } from 'react';
import { useSidebarState } from 'react-admin';
import { config as consoleConfig, type ConsoleConfig } from '../providers/config';

// InstantSearch and the search client are loaded only when the widget is shown, keeping them
// out of the console's first download.
const CustomerSearch = lazy(() => import('./CustomerSearch'));

type SearchConfig = Pick<ConsoleConfig, 'algolia' | 'apiBaseUrl' | 'serverPrefix'>;

/** Spec §2: renders nothing when the application id or the search key is empty. */
export const SearchWidget = ({ config }: { config: SearchConfig }) => {
  if (!config.algolia.appId || !config.algolia.searchKey) return null;
  return (
    <Suspense fallback={null}>
      <CustomerSearch config={config} />
    </Suspense>
  );
};

/** The sidebar's customer search (spec §2 "Customer search widget"); hidden while the sidebar is folded. */
export const SearchSlot = () => {
  const [open] = useSidebarState();
  return open ? <SearchWidget config={consoleConfig} /> : null;
};
