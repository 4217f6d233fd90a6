import { MenuItemLink } from 'react-admin';
import PeopleIcon from '@mui/icons-material/People';
import AllClientsIcon from '@mui/icons-material/PeopleOutline';
import NewClientsIcon from '@mui/icons-material/PersonAddAltOutlined';
import ActiveClientsIcon from '@mui/icons-material/HowToRegOutlined';
import OverridesIcon from '@mui/icons-material/EventRepeatOutlined';
import { SubMenu } from '../layout/SubMenu';
import { useCan } from '../layout/useCan';
import { clientListPath } from './clientLists';
import { SegmentMenuItems } from '../segments/SegmentMenuItems';

/** The MindBody list (/clients/mindbody) has no sidebar link. */
export const ClientsMenu = () => {
  const allowed = useCan('clients', 'list');
  const overrides = useCan('overrides', 'list');
  if (!allowed) return null;
  return (
    <SubMenu id="clients" label="menu.clients" icon={<PeopleIcon />}>
      <MenuItemLink to={clientListPath({ slug: 'all' })} primaryText="menu.all_clients" leftIcon={<AllClientsIcon />} role="link" />
      <MenuItemLink to={clientListPath({ slug: 'new' })} primaryText="menu.new_clients" leftIcon={<NewClientsIcon />} role="link" />
      <MenuItemLink to={clientListPath({ slug: 'active' })} primaryText="menu.active_clients" leftIcon={<ActiveClientsIcon />} role="link" />
      {/* Ours (docs/features.md#segments): At risk, the saved segments, New segment, Broadcasts. */}
      <SegmentMenuItems />
      {/* Ours: the running access-level overrides (the override permission). */}
      {overrides && <MenuItemLink to="/overrides" primaryText="menu.overrides" leftIcon={<OverridesIcon />} role="link" />}
    </SubMenu>
  );
};
