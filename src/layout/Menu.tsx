import type { ReactElement } from 'react';
import { Box } from '@mui/material';
import { Menu as RaMenu, useSidebarState } from 'react-admin';
import DashboardIcon from '@mui/icons-material/DashboardOutlined';
import ForumIcon from '@mui/icons-material/ForumOutlined';
import VideoLibraryIcon from '@mui/icons-material/VideoLibraryOutlined';
import PeopleIcon from '@mui/icons-material/People';
import HighFiveIcon from '@mui/icons-material/FrontHandOutlined';
import MissedClassIcon from '@mui/icons-material/EventBusyOutlined';
import NoteToSelfIcon from '@mui/icons-material/StickyNote2Outlined';
import MondayMorningIcon from '@mui/icons-material/WbSunnyOutlined';
import CancelledClassIcon from '@mui/icons-material/CancelOutlined';
import ExtendedAbsenseIcon from '@mui/icons-material/HourglassEmptyOutlined';
import AllClientsIcon from '@mui/icons-material/PeopleOutline';
import NewClientsIcon from '@mui/icons-material/PersonAddAltOutlined';
import ActiveClientsIcon from '@mui/icons-material/HowToRegOutlined';
import AuditIcon from '@mui/icons-material/ManageSearchOutlined';
import { AUDIT_PATH } from '../audit';
import { messageTypes, messagingPath, type MessageType } from '../messaging';
import { clientListPath } from '../clients';
import { SearchSlot } from '../search/SearchSlot';
import { SyncVimeoButton } from '../videos/SyncVimeoButton';
import { SidebarBrand } from './SidebarBrand';
import { SubMenu } from './SubMenu';
import { UserFooter } from './UserFooter';

const messageTypeIcons: Record<MessageType['id'], ReactElement> = {
  1: <HighFiveIcon />,
  2: <MissedClassIcon />,
  3: <NoteToSelfIcon />,
  4: <MondayMorningIcon />,
  5: <CancelledClassIcon />,
  6: <ExtendedAbsenseIcon />,
};

/**
 * The sidebar, top to bottom (spec §1-2): logo, customer search, Dashboard, the
 * Messaging / Video Manager / Clients groups, and the signed-in user pinned at the bottom.
 */
export const Menu = () => {
  const [sidebarOpen] = useSidebarState();
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
      <SearchSlot />
      {/* Only this part scrolls, so the footer stays visible however many groups are open;
          its entries must not shrink to fit (RaMenu is a flex column) or they would overlap. */}
      <RaMenu sx={{ flex: '1 1 auto', minHeight: 0, overflowY: 'auto', width: '100%', '& > *': { flexShrink: 0 } }}>
        <RaMenu.DashboardItem primaryText="menu.dashboard" leftIcon={<DashboardIcon />} />
        <SubMenu id="messaging" label="menu.messaging" icon={<ForumIcon />}>
          {messageTypes.map((type) => (
            <RaMenu.Item
              key={type.id}
              to={messagingPath(type)}
              primaryText={type.labelKey}
              leftIcon={messageTypeIcons[type.id]}
            />
          ))}
        </SubMenu>
        {/* Spec §2: this group holds only the sync button; /videos has no sidebar link. */}
        <SubMenu id="videos" label="menu.video_manager" icon={<VideoLibraryIcon />}>
          <SyncVimeoButton />
        </SubMenu>
        {/* Spec §2: the MindBody list (/clients/mindbody) has no sidebar link. */}
        <SubMenu id="clients" label="menu.clients" icon={<PeopleIcon />}>
          <RaMenu.Item to={clientListPath({ slug: 'all' })} primaryText="menu.all_clients" leftIcon={<AllClientsIcon />} />
          <RaMenu.Item to={clientListPath({ slug: 'new' })} primaryText="menu.new_clients" leftIcon={<NewClientsIcon />} />
          <RaMenu.Item
            to={clientListPath({ slug: 'active' })}
            primaryText="menu.active_clients"
            leftIcon={<ActiveClientsIcon />}
          />
        </SubMenu>
        {/* Ours (issue 11): not in spec §2's sidebar, but staff need to find it. */}
        <RaMenu.Item to={AUDIT_PATH} primaryText="menu.audit" leftIcon={<AuditIcon />} />
      </RaMenu>
      <UserFooter />
    </Box>
  );
};
