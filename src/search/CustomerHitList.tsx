import { Box, CircularProgress, List, Paper, Popper, Typography, type SxProps, type Theme } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { CustomerHit } from '@contract/search';
import { CustomerHitItem } from './CustomerHitItem';

interface Props {
  /** The box the list hangs under. */
  anchor: HTMLElement | null;
  id: string;
  hits: CustomerHit[];
  query: string;
  status: 'idle' | 'loading' | 'stalled' | 'error';
  selected: number;
  onHover(index: number): void;
  onOpen(hit: CustomerHit): void;
}

/** The look of CustomerHitItem's plain elements, set once for the whole list. */
const hitStyles: SxProps<Theme> = (theme) => ({
  '& .hit': {
    display: 'flex',
    alignItems: 'center',
    gap: 1.5,
    px: 2,
    py: 0.75,
    color: 'text.primary',
    textDecoration: 'none',
    cursor: 'pointer',
    '&:hover': { bgcolor: 'action.hover' },
    '&:focus-visible': { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: -2 },
  },
  '& .hit-selected, & .hit-selected:hover': { bgcolor: 'action.selected' },
  '& .hit-avatar': { flexShrink: 0, borderRadius: '50%', overflow: 'hidden', bgcolor: 'action.disabledBackground' },
  '& .hit-avatar img': { display: 'block', width: '100%', height: '100%', objectFit: 'cover' },
  '& .hit-text': { minWidth: 0, display: 'flex', flexDirection: 'column' },
  '& .hit-name': { ...theme.typography.body2, fontWeight: 600 },
  '& .hit-detail': { ...theme.typography.body2, color: 'text.secondary', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
});

/** The hits under the box, with the search status: a spinner once stalled, a short line on error. */
export const CustomerHitList = ({ anchor, id, hits, query, status, selected, onHover, onOpen }: Props) => {
  const translate = useTranslate();
  return (
    // In a portal: over the page, not clipped by the sidebar (whose Papers react-admin restyles).
    <Popper open={Boolean(anchor)} anchorEl={anchor} placement="bottom-start" sx={{ zIndex: (theme) => theme.zIndex.modal + 1 }}>
      <Paper elevation={8} sx={{ mt: 0.5, width: 'min(380px, calc(100vw - 16px))', maxHeight: '60vh', overflowY: 'auto' }}>
        {status === 'stalled' && (
          <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, py: 1 }}>
            <CircularProgress size={16} aria-label={translate('search.searching')} />
            <Typography variant="body2" color="text.secondary">
              {translate('search.searching')}
            </Typography>
          </Box>
        )}
        {status === 'error' && (
          <Typography role="alert" variant="body2" color="error" sx={{ px: 2, py: 1 }}>
            {translate('search.error')}
          </Typography>
        )}
        <List id={id} role="listbox" aria-label={translate('search.results')} dense disablePadding sx={hitStyles}>
          {hits.map((hit, index) => (
            <CustomerHitItem
              key={hit.objectID}
              id={`${id}-${index}`}
              hit={hit}
              selected={index === selected}
              onHover={() => onHover(index)}
              onOpen={() => onOpen(hit)}
            />
          ))}
        </List>
        {hits.length === 0 && query !== '' && status !== 'error' && status !== 'stalled' && (
          <Typography variant="body2" color="text.secondary" sx={{ px: 2, py: 1 }}>
            {translate('search.no_results', { query })}
          </Typography>
        )}
      </Paper>
    </Popper>
  );
};
