import { Sidebar as RaSidebar, useTranslate, type SidebarProps } from 'react-admin';

/**
 * react-admin's Sidebar (a permanent drawer, a temporary one below 600 px), given a
 * surface of its own: the Menu fills its whole height so the user footer stays at the bottom.
 */
export const Sidebar = (props: SidebarProps) => {
  const translate = useTranslate();
  return (
    <RaSidebar
      {...props}
      // Below 600 px the drawer is a modal dialog over the page, which needs a name.
      slotProps={{ paper: { 'aria-label': translate('app.main_menu') } }}
      sx={{
        '& .RaSidebar-fixed': {
          bgcolor: 'background.paper',
          borderRight: 1,
          borderColor: 'divider',
        },
        '& .MuiDrawer-paperAnchorLeft': { display: 'flex', flexDirection: 'column' },
      }}
    />
  );
};
