import { MenuItemLink } from 'react-admin';
import AuditIcon from '@mui/icons-material/ManageSearchOutlined';
import { useCan } from '../layout/useCan';
import { AUDIT_RESOURCE } from './auditData';

/** Ours (docs/features.md "Audit log"): not in the spec's sidebar, but staff need to find it. */
export const AuditMenuItem = () => {
  const allowed = useCan('audit', 'list');
  return allowed ? <MenuItemLink to={`/${AUDIT_RESOURCE}`} primaryText="menu.audit" leftIcon={<AuditIcon />} role="link" /> : null;
};
