import { useRef, useState, type ComponentType } from 'react';
import { Box } from '@mui/material';
import { useSidebarState } from 'react-admin';
import { config as consoleConfig, type ConsoleConfig } from '../providers/config';
import { CustomerSearchBox } from './CustomerSearchBox';
import type { CustomerSearchProps } from './CustomerSearch';
import { SearchForField } from './SearchForField';
import { loadChunk } from '../common/chunks';

type SearchConfig = Pick<ConsoleConfig, 'algolia' | 'apiBaseUrl' | 'serverPrefix'>;

// InstantSearch and the search client (~55 KB gzipped) are not part of the console's first
// download: they load when staff point at or focus the box.
const loadCustomerSearch = () => loadChunk(() => import('./CustomerSearch')).then((module) => module.default);

interface Loaded {
  Widget: ComponentType<CustomerSearchProps>;
  /** Which stand-in field had the focus when the widget arrived: the widget's takes it over. */
  focus: 'query' | 'searchFor' | null;
  /** 'Search for:' was clicked or asked to open with a key meanwhile. */
  openSearchFor: boolean;
}

/**
 * Renders nothing when the application id or the search key is empty. Until the widget
 * has loaded, the same box stands in (what is typed meanwhile is kept and searched for; the focus
 * and an opened 'Search for:' carry over to the widget's own fields).
 */
export const SearchWidget = ({ config }: { config: SearchConfig }) => {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [value, setValue] = useState('');
  const wanted = useRef(false);
  const focus = useRef<Loaded['focus']>(null);
  const openSearchFor = useRef(false);
  const enabled = Boolean(config.algolia.appId && config.algolia.searchKey);

  const load = () => {
    if (wanted.current) return;
    wanted.current = true;
    loadCustomerSearch().then(
      (Widget) => setLoaded({ Widget, focus: focus.current, openSearchFor: openSearchFor.current }),
      // The stand-in box stays, with what was typed; the next pointing or focusing asks again.
      () => {
        wanted.current = false;
      },
    );
  };
  const focused = (field: Loaded['focus']) => () => {
    focus.current = field;
    load();
  };
  const blurred = () => {
    focus.current = null;
  };
  if (!enabled) return null;
  if (loaded) {
    const { Widget } = loaded;
    return (
      <Widget
        config={config}
        initialValue={value}
        autoFocus={loaded.focus === 'query'}
        searchFor={{ autoFocus: loaded.focus === 'searchFor', defaultOpen: loaded.openSearchFor }}
      />
    );
  }
  return (
    // Pointing at the box fetches the code; focusing or typing swaps the widget in.
    <Box sx={{ px: 1.5, pb: 1 }} onPointerEnter={() => void loadCustomerSearch()}>
      <CustomerSearchBox
        searchFor={
          <SearchForField
            onFocus={focused('searchFor')}
            onBlur={blurred}
            onOpen={() => {
              openSearchFor.current = true;
              load();
            }}
          />
        }
        value={value}
        listId="customer-search-results"
        expanded={false}
        onFocus={focused('query')}
        onBlur={blurred}
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

/** The sidebar's customer search (the spec's "Customer search widget"); hidden while the sidebar is folded. */
export const SearchSlot = () => {
  const [open] = useSidebarState();
  return open ? <SearchWidget config={consoleConfig} /> : null;
};
