import { useRef, useState, type ComponentType } from 'react';
import { Box } from '@mui/material';
import { useSidebarState } from 'react-admin';
import { config as consoleConfig, type ConsoleConfig } from '../providers/config';
import { CustomerSearchBox } from './CustomerSearchBox';
import type { CustomerSearchProps } from './CustomerSearch';

type SearchConfig = Pick<ConsoleConfig, 'algolia' | 'apiBaseUrl' | 'serverPrefix'>;

// InstantSearch and the search client (~55 KB gzipped) are not part of the console's first
// download: they load when staff point at or focus the box.
const loadCustomerSearch = () => import('./CustomerSearch').then((module) => module.default);

/**
 * Spec §2: renders nothing when the application id or the search key is empty. Until the widget
 * has loaded, the same box stands in (what is typed meanwhile is kept and searched for).
 */
export const SearchWidget = ({ config }: { config: SearchConfig }) => {
  const [Widget, setWidget] = useState<ComponentType<CustomerSearchProps> | null>(null);
  const [value, setValue] = useState('');
  const wanted = useRef(false);
  const focused = useRef(false);
  const enabled = Boolean(config.algolia.appId && config.algolia.searchKey);

  const load = () => {
    if (wanted.current) return;
    wanted.current = true;
    void loadCustomerSearch().then((component) => setWidget(() => component));
  };
  if (!enabled) return null;
  if (Widget) return <Widget config={config} initialValue={value} autoFocus={focused.current} />;
  return (
    // Pointing at the box fetches the code; focusing or typing swaps the widget in.
    <Box sx={{ px: 1.5, pb: 1 }} onPointerEnter={() => void loadCustomerSearch()}>
      <CustomerSearchBox
        value={value}
        listId="customer-search-results"
        expanded={false}
        onFocus={() => {
          focused.current = true;
          load();
        }}
        onChange={(text) => {
          setValue(text);
          load();
        }}
        onSubmit={load}
        onClear={() => setValue('')}
        onKeyDown={load}
      />
    </Box>
  );
};

/** The sidebar's customer search (spec §2 "Customer search widget"); hidden while the sidebar is folded. */
export const SearchSlot = () => {
  const [open] = useSidebarState();
  return open ? <SearchWidget config={consoleConfig} /> : null;
};
