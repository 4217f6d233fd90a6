import type { Theme } from '@mui/material/styles';
import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';

// Brand orange of /logo.svg; the dark variant is lighter so it keeps contrast on dark grey.
const brand = { main: '#c2410c', light: '#fb923c' };

// Inside the element: entries sit edge to edge in scrolling containers that would clip an outer ring.
const focusRing = { outline: '2px solid currentColor', outlineOffset: -2 };

const shared: RaThemeOptions = {
  sidebar: { width: 248, closedWidth: 56 },
  shape: { borderRadius: 8 },
  typography: {
    h1: { fontSize: '1.75rem', fontWeight: 600, lineHeight: 1.3 },
  },
  components: {
    // Same icon column for links, group headers and the sync button, so labels line up.
    MuiMenuItem: {
      styleOverrides: { root: { '& .MuiListItemIcon-root': { minWidth: 40 }, '&.Mui-focusVisible': focusRing } },
    },
    // MUI marks keyboard focus on these with a faint background only: a ring is visible on any surface.
    MuiListItemButton: { styleOverrides: { root: { '&.Mui-focusVisible': focusRing } } },
    MuiCardActionArea: { styleOverrides: { root: { '&.Mui-focusVisible': focusRing } } },
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

// Status colours dark enough (light theme) or light enough (dark theme) for text at WCAG AA (4.5:1),
// also on a selected or tinted row: MUI's defaults (e.g. warning #ed6c02, 3:1 on white) are not.
export const lightTheme = extend(defaultLightTheme, {
  mode: 'light',
  primary: { main: brand.main },
  secondary: { main: '#1f2937', contrastText: '#fff' },
  background: { default: '#f6f7f9', paper: '#ffffff' },
  error: { main: '#c62828' },
  warning: { main: '#b45309' },
  info: { main: '#0277bd' },
  success: { main: '#2e7d32' },
});

export const darkTheme = extend(defaultDarkTheme, {
  mode: 'dark',
  primary: { main: brand.light },
  secondary: { main: '#111827', contrastText: '#f9fafb' },
  background: { default: '#1b1d21', paper: '#24272c' },
  error: { main: '#f28b82' },
  warning: { main: '#fbbf24' },
  info: { main: '#7cc4fa' },
  success: { main: '#81c995' },
});
