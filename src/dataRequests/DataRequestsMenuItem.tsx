import { MenuItemLink } from 'react-admin';
import RequestsIcon from '@mui/icons-material/AssignmentIndOutlined';
import { useCan } from '../layout/useCan';
import { DATA_REQUESTS_PATH } from './dataRequestsData';

/** Owners and managers: clients' access and erasure requests, and retention. */
export const DataRequestsMenuItem = () => {
  const allowed = useCan('data-requests', 'list');
  return allowed ? <MenuItemLink to={DATA_REQUESTS_PATH} primaryText="menu.data_requests" leftIcon={<RequestsIcon />} role="link" /> : null;
};
