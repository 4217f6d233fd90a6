import { Sidebar as RaSidebar, type SidebarProps } from 'react-admin';

/**
 * react-admin's Sidebar (a permanent drawer, a temporary one below 600 px), given a
 * surface of its own: the Menu fills its whole height so the user footer stays at the bottom.
 */
export const Sidebar = (props: SidebarProps) => (
  <RaSidebar
    {...props}
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
