import { Box, Typography } from '@mui/material';
import { DataTable, DateField, FilterButton, List, TopToolbar, useRecordContext, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { AuditEntry } from '../../contract/audit';
import { PageHeader } from '../layout/PageHeader';
import { clientPath } from '../clients/clientLists';
import { AUDIT_RESOURCE } from './auditData';
import { AuditChanges } from './AuditChanges';
import { AuditExportButton } from './AuditExportButton';
import { auditFilters } from './auditFilters';
import { targetMessage } from './auditFormat';

const Column = DataTable.Col<AuditEntry>;

export const WhenCell = () => <DateField source="at" showTime />;

export const StaffCell = () => {
  const entry = useRecordContext<AuditEntry>();
  const translate = useTranslate();
  return <>{entry?.staff_email ?? translate('audit.system')}</>;
};

export const ActionCell = () => {
  const entry = useRecordContext<AuditEntry>();
  const translate = useTranslate();
  return entry ? <>{translate(`audit.actions.${entry.action}`, { _: entry.action })}</> : null;
};

const TargetCell = () => {
  const entry = useRecordContext<AuditEntry>();
  const translate = useTranslate();
  if (!entry) return null;
  const [key, values] = targetMessage(entry);
  // Videos have a page of their own; the other targets are read in place.
  if (entry.target_type === 'video' && entry.target_id) return <Link to={`/videos/${entry.target_id}`}>{translate(key, values)}</Link>;
  return <>{translate(key, values)}</>;
};

const ClientCell = () => {
  const entry = useRecordContext<AuditEntry>();
  if (!entry?.client_id) return null;
  return <Link to={clientPath(entry.client_id)}>{entry.client_id}</Link>;
};

export const ChangesCell = () => {
  const entry = useRecordContext<AuditEntry>();
  return entry ? <AuditChanges entry={entry} /> : null;
};

/** Audit Log (issue 11): who did what to which record and when, newest first; filters live in the URL. */
const AuditList = () => {
  const translate = useTranslate();
  return (
    <Box>
      <PageHeader title={translate('audit.title')} />
      <List
        resource={AUDIT_RESOURCE}
        title={false}
        filters={auditFilters(translate)}
        actions={
          <TopToolbar>
            <FilterButton />
            <AuditExportButton />
          </TopToolbar>
        }
        sort={{ field: 'at', order: 'DESC' }}
        perPage={25}
        empty={false}
        disableSyncWithLocation={false}
        sx={{ '& .RaList-main': { minWidth: 0 }, '& .RaList-content': { overflowX: 'auto' } }}
      >
        <DataTable bulkActionButtons={false} rowClick={false} empty={<Typography sx={{ p: 2 }}>{translate('audit.empty')}</Typography>}>
          <Column source="at" label="audit.columns.at" field={WhenCell} />
          <Column source="staff_email" label="audit.columns.staff" field={StaffCell} />
          <Column source="action" label="audit.columns.action" field={ActionCell} />
          <Column label="audit.columns.target" disableSort field={TargetCell} />
          <Column label="audit.columns.client" disableSort field={ClientCell} />
          <Column label="audit.columns.changes" disableSort field={ChangesCell} />
          <Column source="ip" label="audit.columns.ip" disableSort />
        </DataTable>
      </List>
    </Box>
  );
};

export default AuditList;
