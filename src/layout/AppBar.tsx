import { memo } from 'react';
import { AppBar as MuiAppBar, Box, Toolbar, Typography, useMediaQuery, type Theme } from '@mui/material';
import { styled } from '@mui/material/styles';
import { LoadingIndicator, SidebarToggleButton, TitlePortal, ToggleThemeButton, useTranslate } from 'react-admin';

const PREFIX = 'RaAppBar';
const AppBarClasses = {
  appBar: `${PREFIX}-appBar`,
  toolbar: `${PREFIX}-toolbar`,
  menuButton: `${PREFIX}-menuButton`,
  title: `${PREFIX}-title`,
};

// react-admin's AppBar styles, under its name (theme overrides of RaAppBar still apply).
const StyledAppBar = styled(MuiAppBar, { name: PREFIX, overridesResolver: (_props, styles) => styles.root })(({ theme }) => ({
  [`& .${AppBarClasses.toolbar}`]: {
    padding: `0 ${theme.spacing(1)}`,
    [theme.breakpoints.down('md')]: { minHeight: theme.spacing(6) },
  },
  [`& .${AppBarClasses.menuButton}`]: { marginRight: '0.2em' },
}));

/**
 * App name ("the header titles the app as a management console"), then the page title.
 * react-admin's AppBar with `alwaysOn` (same elements, classes and styles), without the user and
 * language menus it imports as defaults even when replaced: the user menu lives in the sidebar
 * footer. Always on: a bar that slid away on scroll would take the drawer's toggle along.
 */
export const AppBar = memo(() => {
  const translate = useTranslate();
  const isXSmall = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  return (
    <div>
      <StyledAppBar className={AppBarClasses.appBar} color="secondary">
        <Toolbar disableGutters variant={isXSmall ? 'regular' : 'dense'} className={AppBarClasses.toolbar}>
          <SidebarToggleButton className={AppBarClasses.menuButton} />
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
          <ToggleThemeButton />
          {/* Its props go to the spinner shown while loading, which would otherwise have no name. */}
          <LoadingIndicator {...({ 'aria-label': translate('ra.page.loading') } as object)} />
        </Toolbar>
      </StyledAppBar>
    </div>
  );
});
