import { Menu } from 'react-admin';
import DashboardIcon from '@mui/icons-material/DashboardOutlined';

export const DashboardMenuItem = () => <Menu.DashboardItem primaryText="menu.dashboard" leftIcon={<DashboardIcon />} role="link" />;
