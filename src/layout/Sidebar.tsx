import { Suspense, type ReactNode } from 'react';
import { lazyChunk } from '../common/chunks';
import { Paper, useMediaQuery, type SxProps, type Theme } from '@mui/material';
import { styled } from '@mui/material/styles';
import { useLocale, useSidebarState, useTranslate } from 'react-admin';

// Below 600 px: react-admin's Sidebar, a temporary drawer (MUI's Drawer, Modal, focus trap, Slide:
// ~5 KB). It draws nothing until opened, so it is fetched on phones only, as soon as the console
// runs on one, and is not part of the first download.
const PhoneSidebar = lazyChunk(() => import('./PhoneSidebar'));

export interface SidebarProps {
  children: ReactNode;
}

/**
 * The sidebar: a permanent drawer, a temporary one below 600 px (react-admin's Sidebar), given a
 * surface of its own: the Menu fills its whole height so the user footer stays at the bottom.
 */
export const Sidebar = ({ children }: SidebarProps) => {
  const translate = useTranslate();
  const isXSmall = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [open] = useSidebarState();
  useLocale(); // redrawn on a change of locale, as react-admin's
  // Below 600 px the drawer is a modal dialog over the page, which needs a name.
  const label = translate('app.main_menu');
  if (isXSmall) {
    return (
      <Suspense fallback={null}>
        <PhoneSidebar appBarAlwaysOn slotProps={{ paper: { 'aria-label': label } }} sx={surface}>
          {children}
        </PhoneSidebar>
      </Suspense>
    );
  }
  return (
    <Docked
      className={`MuiDrawer-root MuiDrawer-anchorLeft MuiDrawer-docked RaSidebar-docked ${open ? 'RaSidebar-open' : 'RaSidebar-closed'}`}
      open={open}
      sx={surface}
    >
      {/* No name of its own: a plain surface, around the menu's <nav aria-label="Main">. */}
      <Paper elevation={0} square className={PAPER_CLASSES} sx={drawerPaper}>
        <div className="RaSidebar-fixed">{children}</div>
      </Paper>
    </Docked>
  );
};

const surface: SxProps<Theme> = {
  '& .RaSidebar-fixed': {
    bgcolor: 'background.paper',
    borderRight: 1,
    borderColor: 'divider',
  },
  '& .MuiDrawer-paperAnchorLeft': { display: 'flex', flexDirection: 'column' },
};

const PAPER_CLASSES = [
  'MuiDrawer-paper',
  'RaSidebar-paper',
  'MuiDrawer-paperAnchorLeft',
  'RaSidebar-paperAnchorLeft',
  'MuiDrawer-paperAnchorDockedLeft',
  'RaSidebar-paperAnchorDockedLeft',
].join(' ');

/** MUI's Drawer paper, anchored left and docked (Drawer's DrawerPaper styles). */
const drawerPaper: SxProps<Theme> = (theme) => ({
  overflowY: 'auto',
  display: 'flex',
  flexDirection: 'column',
  height: '100%',
  flex: '1 0 auto',
  zIndex: (theme.vars || theme).zIndex.drawer,
  WebkitOverflowScrolling: 'touch',
  position: 'fixed',
  top: 0,
  // A string: sx would read a number as a border width (`0px solid`).
  outline: '0',
  left: 0,
  borderRight: `1px solid ${(theme.vars || theme).palette.divider}`,
});

/**
 * What react-admin's Sidebar renders above 600 px, without MUI's Drawer: Drawer's docked root
 * (`flex: 0 0 auto`) with react-admin's RaSidebar styles (theme overrides of RaSidebar still apply).
 */
const Docked = styled('div', {
  name: 'RaSidebar',
  slot: 'Root',
  overridesResolver: (_props, styles) => styles.root,
  shouldForwardProp: (prop) => prop !== 'open' && prop !== 'sx',
})<{ open: boolean }>(({ open, theme }) => ({
  flex: '0 0 auto',
  height: 'calc(100vh - 3em)',
  marginTop: 0,
  transition: theme.transitions.create('margin', {
    easing: theme.transitions.easing.easeOut,
    duration: theme.transitions.duration.enteringScreen,
  }),
  '& .RaSidebar-fixed': {
    position: 'fixed',
    height: 'calc(100vh - 3em)',
    overflowX: 'hidden',
    // hide scrollbar
    scrollbarWidth: 'none',
    msOverflowStyle: 'none',
    '&::-webkit-scrollbar': {
      display: 'none',
    },
  },
  '& .MuiPaper-root': {
    position: 'relative',
    width: open ? theme.sidebar.width : theme.sidebar.closedWidth,
    transition: theme.transitions.create('width', {
      easing: theme.transitions.easing.sharp,
      duration: theme.transitions.duration.leavingScreen,
    }),
    backgroundColor: 'transparent',
    borderRight: 'none',
    [theme.breakpoints.only('xs')]: {
      marginTop: 0,
      height: '100vh',
      position: 'inherit',
      backgroundColor: (theme.vars || theme).palette.background.default,
    },
    [theme.breakpoints.up('md')]: {
      border: 'none',
    },
    zIndex: 'inherit',
  },
}));
