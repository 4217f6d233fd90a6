import type { Theme } from '@mui/material/styles';
import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';

// Brand orange of /logo.svg; the dark variant is lighter so it keeps contrast on dark grey.
const brand = { main: '#c2410c', light: '#fb923c' };

const shared: RaThemeOptions = {
  sidebar: { width: 248, closedWidth: 56 },
  shape: { borderRadius: 8 },
  typography: {
    h1: { fontSize: '1.75rem', fontWeight: 600, lineHeight: 1.3 },
  },
  components: {
    // Same icon column for links, group headers and the sync button, so labels line up.
    MuiMenuItem: {
      styleOverrides: { root: { '& .MuiListItemIcon-root': { minWidth: 40 } } },
    },
    RaMenuItemLink: {
      styleOverrides: {
        // An inset bar, not a border, so the active entry's label does not shift.
        root: ({ theme }: { theme: Theme }) => ({
          '&.RaMenuItemLink-active': {
            boxShadow: `inset 3px 0 0 ${(theme.vars || theme).palette.primary.main}`,
            fontWeight: 600,
          },
        }),
      },
    },
  },
};

// A shallow merge per section is enough: we only add keys react-admin's themes don't set.
const extend = (base: RaThemeOptions, palette: RaThemeOptions['palette']): RaThemeOptions => ({
  ...base,
  ...shared,
  palette: { ...base.palette, ...palette },
  typography: { ...(base.typography as object), ...(shared.typography as object) },
  components: { ...base.components, ...shared.components },
});

export const lightTheme = extend(defaultLightTheme, {
  mode: 'light',
  primary: { main: brand.main },
  secondary: { main: '#1f2937', contrastText: '#fff' },
  background: { default: '#f6f7f9', paper: '#ffffff' },
});

export const darkTheme = extend(defaultDarkTheme, {
  mode: 'dark',
  primary: { main: brand.light },
  secondary: { main: '#111827', contrastText: '#f9fafb' },
  background: { default: '#1b1d21', paper: '#24272c' },
});
