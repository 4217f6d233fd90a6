import { useMediaQuery } from '@mui/material';
import { useTheme } from '@mui/material/styles';

/**
 * Below MUI's `sm` (600 px): react-admin's sidebar is a drawer and lists turn into compact card
 * lists, as in react-admin's demo. useTheme falls back to MUI's default breakpoints without a ThemeProvider.
 */
export const useIsPhone = () => useMediaQuery(useTheme().breakpoints.down('sm'), { noSsr: true });
