import { forwardRef, useId, useImperativeHandle, useRef, type ElementType, type FocusEventHandler, type KeyboardEvent, type MouseEvent } from 'react';
import { Box, FilledInput, FormControl, InputLabel, type InputBaseComponentProps } from '@mui/material';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import { useTranslate } from 'react-admin';
import { CUSTOMERS_INDEX } from '@contract/searchRules';

/** The keys that open MUI's Select (SelectInput's own list). */
const SELECT_OPENING_KEYS = [' ', 'ArrowUp', 'ArrowDown', 'Enter'];

export interface SearchForFieldProps {
  onFocus(): void;
  onBlur(): void;
  /** A click or an opening key: the menu is wanted as soon as the real select is there. */
  onOpen(): void;
}

interface DisplayProps extends InputBaseComponentProps {
  labelId: string;
  text: string;
  onOpen(): void;
}

/** What InputBase reads as its input (focus, filled or not), as SelectInput hands it over. */
interface InputHandle {
  focus(): void;
  node: HTMLDivElement | null;
  value: unknown;
}

/**
 * What MUI's SelectInput renders while closed: the combobox (same role, attributes and label
 * reference), over the input styles FilledInput hands it, plus SelectSelect's and the icon's styles.
 */
const SelectDisplay = forwardRef<InputHandle, DisplayProps>(function SelectDisplay({ className, id, value, labelId, text, onFocus, onBlur, onOpen }, ref) {
  const display = useRef<HTMLDivElement>(null);
  useImperativeHandle(ref, () => ({ focus: () => display.current?.focus(), node: display.current, value }), [value]);
  return (
    <>
      <Box
        ref={display}
        id={id}
        className={className}
        tabIndex={0}
        role="combobox"
        aria-expanded="false"
        aria-haspopup="listbox"
        aria-labelledby={`${labelId} ${id}`}
        onFocus={onFocus as FocusEventHandler<HTMLDivElement>}
        onBlur={onBlur as FocusEventHandler<HTMLDivElement>}
        onMouseDown={(event: MouseEvent<HTMLDivElement>) => {
          // As SelectInput: left button only, no text selection, the focus on the combobox.
          if (event.button !== 0) return;
          event.preventDefault();
          event.currentTarget.focus();
          onOpen();
        }}
        onKeyDown={(event: KeyboardEvent<HTMLDivElement>) => {
          if (!SELECT_OPENING_KEYS.includes(event.key)) return;
          event.preventDefault();
          onOpen();
        }}
        sx={{
          MozAppearance: 'none',
          WebkitAppearance: 'none',
          userSelect: 'none',
          borderRadius: 0,
          cursor: 'pointer',
          '&:focus': { borderRadius: 0 },
          '&&&': { paddingRight: '32px' },
          height: 'auto',
          minHeight: '1.4375em',
          textOverflow: 'ellipsis',
          whiteSpace: 'nowrap',
          overflow: 'hidden',
        }}
      >
        {text}
      </Box>
      <ArrowDropDownIcon sx={{ position: 'absolute', right: 7, top: 'calc(50% - .5em)', pointerEvents: 'none', color: 'action.active' }} />
    </>
  );
});

/**
 * 'Search for:' (Customers only) as the stand-in box shows it: the same label, field and combobox
 * as the real select (SearchForSelect), without MUI's Select, Menu and Popover in the console's
 * first download. It opens nothing itself: focusing it brings the widget, which puts the real select
 * in its place (focused, and open when it was clicked or an opening key was pressed).
 */
export const SearchForField = ({ onFocus, onBlur, onOpen }: SearchForFieldProps) => {
  const translate = useTranslate();
  const id = useId();
  const labelId = `${id}-label`;
  return (
    // Filled, dense and small: what react-admin's theme makes of every TextField, the real one too.
    <FormControl variant="filled" margin="dense" size="small" fullWidth sx={{ mb: 1 }}>
      <InputLabel id={labelId} htmlFor={id}>
        {translate('search.search_for')}
      </InputLabel>
      <FilledInput
        id={id}
        value={CUSTOMERS_INDEX}
        onFocus={onFocus}
        onBlur={onBlur}
        inputComponent={SelectDisplay as ElementType<InputBaseComponentProps>}
        inputProps={{ labelId, text: translate('search.indexes.customers'), onOpen }}
      />
    </FormControl>
  );
};
