import { MenuItemLink } from 'react-admin';
import StaffIcon from '@mui/icons-material/BadgeOutlined';
import { useCan } from '../layout/useCan';
import { STAFF_RESOURCE } from './staffData';

export const StaffMenuItem = () => {
  const allowed = useCan('staff', 'list');
  return allowed ? <MenuItemLink to={`/${STAFF_RESOURCE}`} primaryText="menu.staff" leftIcon={<StaffIcon />} role="link" /> : null;
};
