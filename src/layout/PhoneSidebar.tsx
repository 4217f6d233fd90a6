import { Sidebar, type SidebarProps } from 'react-admin';

/** Below 600 px: react-admin's Sidebar, a temporary drawer. Fetched on phones only (Sidebar.tsx). */
const PhoneSidebar = (props: SidebarProps) => <Sidebar {...props} />;

export default PhoneSidebar;
