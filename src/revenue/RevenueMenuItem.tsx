import { MenuItemLink } from 'react-admin';
import RevenueIcon from '@mui/icons-material/ShowChartOutlined';
import { useCan } from '../layout/useCan';
import { REVENUE_PATH } from './revenuePaths';

/** Owners and managers only ('revenue.read'). */
export const RevenueMenuItem = () => {
  const allowed = useCan('revenue', 'list');
  return allowed ? <MenuItemLink to={REVENUE_PATH} primaryText="menu.revenue" leftIcon={<RevenueIcon />} role="link" /> : null;
};
