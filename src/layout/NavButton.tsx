import type { ReactNode } from 'react';
import { ListItemButton, type ListItemButtonProps } from '@mui/material';

type NavButtonProps = Omit<ListItemButtonProps, 'component' | 'children'> & { children: ReactNode };

/**
 * A sidebar entry that acts instead of navigating (a group header, 'Sync Vimeo videos'): a real
 * <button>, in the Tab order, pressed by Enter and Space, looking like the link entries beside it.
 */
export const NavButton = ({ sx, ...props }: NavButtonProps) => (
  <ListItemButton
    {...props}
    // ListItemButton's types do not carry `component`'s own props; a button element needs no more.
    {...({ component: 'button', type: 'button' } as object)}
    sx={[
      (theme) => ({
        ...theme.typography.body1,
        width: '100%',
        // ListItemButton grows to fill a row; in the sidebar's column it would grow tall instead.
        flexGrow: 0,
        py: 0.75,
        minHeight: { xs: 48, sm: 'auto' },
        '& .MuiListItemIcon-root': { minWidth: 40 },
      }),
      ...(Array.isArray(sx) ? sx : [sx]),
    ]}
  />
);
