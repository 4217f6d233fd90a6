import { Box } from '@mui/material';
import { useSidebarState } from 'react-admin';
import { SearchSlot } from '../search/SearchSlot';
import { SidebarBrand } from './SidebarBrand';
import { UserFooter } from './UserFooter';
import { useCan } from './useCan';
import { useConsoleAreas } from './areasContext';

/**
 * The sidebar, top to bottom: logo, customer search, each area's entry in the order of src/areas.ts,
 * as App.tsx hands them down (Dashboard, the Messaging / Video Manager / Clients groups, …), and the signed-in
 * user pinned at the bottom. Each entry shows only what the role may use (docs/security.md); the
 * server refuses the rest anyway.
 */
export const Menu = () => {
  const [sidebarOpen] = useSidebarState();
  const canSearch = useCan('clients', 'list');
  const areas = useConsoleAreas();
  return (
    <Box
      component="nav"
      aria-label="Main"
      sx={(theme) => ({
        display: 'flex',
        flexDirection: 'column',
        height: '100%',
        width: sidebarOpen ? theme.sidebar.width : theme.sidebar.closedWidth,
        transition: theme.transitions.create('width'),
      })}
    >
      <SidebarBrand />
      {canSearch && <SearchSlot />}
      {/* Only this part scrolls, so the footer stays visible however many groups are open;
          its entries must not shrink to fit (a flex column) or they would overlap.
          Links and disclosure buttons, not react-admin's role="menu": site navigation read as an
          application menu would take Tab away from its entries (WAI-ARIA's disclosure navigation). */}
      <Box sx={{ display: 'flex', flexDirection: 'column', flex: '1 1 auto', minHeight: 0, overflowY: 'auto', width: '100%', '& > *': { flexShrink: 0 } }}>
        {areas.map(({ name, MenuEntry }) => (MenuEntry ? <MenuEntry key={name} /> : null))}
      </Box>
      <UserFooter />
    </Box>
  );
};
