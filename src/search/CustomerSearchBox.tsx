import type { KeyboardEvent, ReactNode, Ref } from 'react';
import { Box, IconButton, InputBase } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import ClearIcon from '@mui/icons-material/Close';
import { useTranslate } from 'react-admin';
import { MAX_QUERY_LENGTH } from '@contract/searchRules';

interface Props {
  /** 'Search for:': the real select (SearchForSelect), or the stand-in's (SearchForField) until the widget is there. */
  searchFor: ReactNode;
  value: string;
  anchorRef?: Ref<HTMLDivElement>;
  autoFocus?: boolean;
  /** The real widget (not the stand-in shown while it loads). */
  ready?: boolean;
  listId: string;
  expanded: boolean;
  activeId?: string;
  onFocus(): void;
  onBlur?(): void;
  onChange(value: string): void;
  onSubmit(): void;
  onClear(): void;
  onKeyDown(event: KeyboardEvent): void;
}

/** 'Search for:' (only Customers), the box (512 characters at most) and its two buttons. */
export const CustomerSearchBox = ({
  searchFor,
  value,
  anchorRef,
  autoFocus,
  ready,
  listId,
  expanded,
  activeId,
  onFocus,
  onBlur,
  onChange,
  onSubmit,
  onClear,
  onKeyDown,
}: Props) => {
  const translate = useTranslate();
  return (
    <Box component="form" role="search" noValidate data-ready={ready ? 'true' : undefined} onSubmit={(event) => (event.preventDefault(), onSubmit())}>
      {searchFor}
      {/* Not a MUI Paper: react-admin's sidebar restyles every Paper inside it (full height). */}
      <Box
        ref={anchorRef}
        sx={{
          display: 'flex',
          alignItems: 'center',
          pl: 1,
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          bgcolor: 'background.paper',
          '&:focus-within': { borderColor: 'primary.main', boxShadow: (theme) => `0 0 0 1px ${theme.palette.primary.main}` },
        }}
      >
        <InputBase
          value={value}
          autoFocus={autoFocus}
          placeholder={translate('search.placeholder')}
          onFocus={onFocus}
          onBlur={onBlur}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={onKeyDown}
          sx={{ flex: 1, fontSize: 14, minWidth: 0 }}
          inputProps={{
            maxLength: MAX_QUERY_LENGTH,
            role: 'combobox',
            'aria-label': translate('search.label'),
            'aria-expanded': expanded,
            'aria-controls': listId,
            'aria-autocomplete': 'list',
            'aria-activedescendant': activeId,
            autoComplete: 'off',
            spellCheck: false,
          }}
        />
        <IconButton type="submit" size="small" title={translate('search.submit')} aria-label={translate('search.submit')}>
          <SearchIcon fontSize="small" />
        </IconButton>
        <IconButton
          size="small"
          title={translate('search.reset')}
          aria-label={translate('search.reset')}
          onClick={onClear}
          sx={{ visibility: value ? 'visible' : 'hidden' }}
        >
          <ClearIcon fontSize="small" />
        </IconButton>
      </Box>
    </Box>
  );
};
