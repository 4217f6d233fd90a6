import { DashboardMenuItem as RaDashboardMenuItem } from 'react-admin';
import DashboardIcon from '@mui/icons-material/DashboardOutlined';

export const DashboardMenuItem = () => <RaDashboardMenuItem primaryText="menu.dashboard" leftIcon={<DashboardIcon />} role="link" />;
