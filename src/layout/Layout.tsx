import type { ReactNode } from 'react';
import { Layout as RaLayout } from 'react-admin';
import { AppBar } from './AppBar';
import { Menu } from './Menu';
import { Sidebar } from './Sidebar';

// appBarAlwaysOn: a hiding AppBar would shift the sidebar up and unpin its footer.
// minWidth 0: a wide table scrolls inside its page instead of stretching the page past a phone's screen.
export const Layout = ({ children }: { children: ReactNode }) => (
  <RaLayout
    appBar={AppBar}
    menu={Menu}
    sidebar={Sidebar}
    appBarAlwaysOn
    sx={{
      // react-admin's root is min-width: fit-content, so one wide table widened every part of the page
      minWidth: 0,
      '& .RaLayout-appFrame, & .RaLayout-contentWithSidebar': { minWidth: 0 },
      '& .RaLayout-content': { px: { xs: 2, md: 3 }, pb: 3, minWidth: 0 },
    }}
  >
    {children}
  </RaLayout>
);
