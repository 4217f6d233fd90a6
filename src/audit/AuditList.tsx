import { Box, Typography } from '@mui/material';
import { DataTable, FilterButton, List, TopToolbar, useTranslate } from 'react-admin';
import type { AuditEntry } from '@contract/audit';
import { PageHeader } from '../layout/PageHeader';
import { useIsPhone } from '../layout/useIsPhone';
import { AUDIT_RESOURCE } from './auditData';
import { ActionCell, ChangesCell, ClientCell, StaffCell, TargetCell, WhenCell } from './AuditCells';
import { AuditExportButton } from './AuditExportButton';
import { auditFilters } from './auditFilters';
import { AuditSimpleList } from './AuditSimpleList';

const Column = DataTable.Col<AuditEntry>;

/**
 * Audit Log (docs/features.md): who did what to which record and when, newest first, in words;
 * filters live in the URL. On a phone a card per entry instead of the table.
 */
const AuditList = () => {
  const translate = useTranslate();
  const isPhone = useIsPhone();
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
        {isPhone ? (
          <AuditSimpleList />
        ) : (
          <DataTable bulkActionButtons={false} rowClick={false} empty={<Typography sx={{ p: 2 }}>{translate('audit.empty')}</Typography>}>
            <Column source="at" label="audit.columns.at" field={WhenCell} />
            <Column source="staff_email" label="audit.columns.staff" field={StaffCell} />
            <Column source="action" label="audit.columns.action" field={ActionCell} />
            <Column label="audit.columns.target" disableSort field={TargetCell} />
            <Column label="audit.columns.client" disableSort field={ClientCell} />
            <Column label="audit.columns.changes" disableSort field={ChangesCell} />
            <Column source="ip" label="audit.columns.ip" disableSort />
          </DataTable>
        )}
      </List>
    </Box>
  );
};

export default AuditList;
