import { Box } from '@mui/material';
import { RecordContextProvider, SimpleList, useTranslate } from 'react-admin';
import type { AuditEntry } from '@contract/audit';
import { AuditChanges } from './AuditChanges';
import { ActionCell, ClientCell, StaffCell, TargetCell, WhenCell } from './AuditCells';

/**
 * The Audit Log on a phone: one compact card per entry (react-admin demo's SimpleList): what was
 * done and when, then who, on what, and the changes, all in words.
 */
export const AuditSimpleList = () => {
  const translate = useTranslate();
  const line = (entry: AuditEntry) => (
    <RecordContextProvider value={entry}>
      <Box component="span" sx={{ display: 'block' }}>
        <StaffCell />
        {' · '}
        <TargetCell />
        {entry.client_id && entry.target_type !== 'client' ? ' · ' : null}
        <ClientCell />
        {entry.ip ? ` · ${entry.ip}` : null}
      </Box>
      <AuditChanges entry={entry} inline />
    </RecordContextProvider>
  );
  return (
    <SimpleList<AuditEntry>
      rowClick={false}
      primaryText={(entry) => (
        <RecordContextProvider value={entry}>
          <ActionCell />
        </RecordContextProvider>
      )}
      tertiaryText={(entry) => (
        <RecordContextProvider value={entry}>
          <WhenCell />
        </RecordContextProvider>
      )}
      secondaryText={line}
      empty={<Box sx={{ p: 2 }}>{translate('audit.empty')}</Box>}
      sx={(theme) => ({
        '& .MuiListItem-root': { borderBottom: `1px solid ${theme.palette.divider}`, alignItems: 'flex-start' },
        '& .MuiListItemText-primary': { fontWeight: 600 },
        // react-admin greys the date with opacity, below readable contrast.
        '& .RaSimpleList-tertiary': { opacity: 1, color: theme.palette.text.secondary, fontWeight: 400, ml: 1, ...theme.typography.body2 },
      })}
    />
  );
};
