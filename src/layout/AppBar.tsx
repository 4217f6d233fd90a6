import { Box, Typography } from '@mui/material';
import { AppBar as RaAppBar, LoadingIndicator, TitlePortal, ToggleThemeButton, useTranslate, type AppBarProps } from 'react-admin';

const Toolbar = () => {
  const translate = useTranslate();
  return (
    <>
      <ToggleThemeButton />
      {/* Its props go to the spinner shown while loading, which would otherwise have no name. */}
      <LoadingIndicator {...({ 'aria-label': translate('ra.page.loading') } as object)} />
    </>
  );
};

/** App name (spec §1: "the header titles the app as a management console"), then the page title. */
export const AppBar = ({ alwaysOn }: Pick<AppBarProps, 'alwaysOn'>) => {
  const translate = useTranslate();
  return (
    // The user menu lives in the sidebar footer, so the AppBar has none. `alwaysOn` comes from the
    // Layout's appBarAlwaysOn: without it the bar slides away on scroll, taking the drawer's toggle along.
    <RaAppBar userMenu={false} toolbar={<Toolbar />} alwaysOn={alwaysOn}>
      <Typography variant="h6" component="div" noWrap sx={{ display: { xs: 'none', sm: 'block' }, fontWeight: 600, mr: 1, flexShrink: 0 }}>
        {translate('app.title')}
        <Box component="span" sx={{ display: { xs: 'none', md: 'inline' }, fontWeight: 400, opacity: 0.8 }}>
          {' · '}
          {translate('app.subtitle')}
        </Box>
      </Typography>
      <Box
        component="span"
        aria-hidden
        sx={{ display: { xs: 'none', sm: 'block' }, width: '1px', height: 20, bgcolor: 'currentColor', opacity: 0.4, mx: 1.5 }}
      />
      <TitlePortal />
    </RaAppBar>
  );
};
