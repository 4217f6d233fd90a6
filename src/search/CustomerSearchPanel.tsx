import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Box, ClickAwayListener } from '@mui/material';
import { useHits, useInstantSearch, useSearchBox } from 'react-instantsearch';
import { useNavigate } from 'react-router-dom';
import { customerHitPath } from '@contract/searchRules';
import { useCloseDrawerOnPhone } from '../layout/useCloseDrawerOnPhone';
import type { CustomerHit } from '@contract/search';
import { moveSelection, SEARCH_DEBOUNCE_MS, showableHits } from './searchRules';
import { CustomerSearchBox } from './CustomerSearchBox';
import { CustomerHitList } from './CustomerHitList';
import { SearchForSelect, type SearchForSelectProps } from './SearchForSelect';

const LIST_ID = 'customer-search-results';

/**
 * The box and its list of hits. The list shows once the box is focused and hides on a click
 * outside, on Escape and when a hit is opened; typing searches 500 ms after the last keystroke.
 */
export const CustomerSearchPanel = ({
  initialValue = '',
  autoFocus = false,
  searchFor,
}: {
  initialValue?: string;
  autoFocus?: boolean;
  searchFor?: SearchForSelectProps;
}) => {
  const { query, refine, clear } = useSearchBox();
  const { items } = useHits<CustomerHit>();
  const { status } = useInstantSearch({ catchError: true });
  const navigate = useNavigate();
  const closeDrawer = useCloseDrawerOnPhone();
  const [value, setValue] = useState(initialValue || query);
  const [open, setOpen] = useState(autoFocus);
  const [selected, setSelected] = useState(-1);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const [anchor, setAnchor] = useState<HTMLDivElement | null>(null);
  // After a failed search the hits on hand answer an earlier query: showing them would pass them off as this one's.
  const hits = status === 'error' ? [] : showableHits(items);

  useEffect(() => {
    // What was typed while the widget loaded is searched for at once.
    if (initialValue) refine(initialValue);
    return () => clearTimeout(timer.current);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  // A new list of hits starts without a selection.
  useEffect(() => setSelected(-1), [items]);

  const searchNow = (text: string) => {
    clearTimeout(timer.current);
    // The search for these words has answered or is under way (the typing's own, 500 ms on): asking
    // again would only repeat it. After a failure it is asked again: that is the way to retry.
    if (text === query && status !== 'error') return;
    refine(text);
  };
  const close = () => {
    setOpen(false);
    setSelected(-1);
  };
  const openHit = (hit: CustomerHit) => {
    close();
    closeDrawer();
    navigate(customerHitPath(hit));
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      setSelected((current) => moveSelection(current, hits.length, event.key as 'ArrowDown' | 'ArrowUp'));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (open && hits[selected]) openHit(hits[selected]!);
      else searchNow(value);
    } else if (event.key === 'Escape') {
      close();
    }
  };

  return (
    <ClickAwayListener
      onClickAway={(event) => {
        // A click that began on the stand-in box (replaced by this widget meanwhile) is not "outside".
        if ((event.target as Node | null)?.isConnected === false) return;
        close();
      }}
    >
      <Box sx={{ px: 1.5, pb: 1 }}>
        <CustomerSearchBox
          searchFor={<SearchForSelect {...searchFor} />}
          value={value}
          anchorRef={setAnchor}
          autoFocus={autoFocus}
          ready
          listId={LIST_ID}
          expanded={open}
          activeId={open && selected >= 0 ? `${LIST_ID}-${selected}` : undefined}
          onFocus={() => setOpen(true)}
          onChange={(text) => {
            setValue(text);
            setOpen(true);
            clearTimeout(timer.current);
            timer.current = setTimeout(() => refine(text), SEARCH_DEBOUNCE_MS);
          }}
          onSubmit={() => {
            setOpen(true);
            searchNow(value);
          }}
          onClear={() => {
            clearTimeout(timer.current);
            setValue('');
            clear();
          }}
          onKeyDown={onKeyDown}
        />
        {open && (
          <CustomerHitList anchor={anchor} id={LIST_ID} hits={hits} query={query} status={status} selected={selected} onHover={setSelected} onOpen={openHit} />
        )}
      </Box>
    </ClickAwayListener>
  );
};
