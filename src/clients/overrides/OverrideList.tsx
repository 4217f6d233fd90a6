import { Box, Chip, Link, Stack, Typography } from '@mui/material';
import { DataTable, List, SimpleList, useListContext, useRecordContext, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { OVERRIDE_ENDING_SOON_DAYS, type RunningOverride } from '@contract/overrides';
import { PageHeader } from '../../layout/PageHeader';
import { useIsPhone } from '../../layout/useIsPhone';
import { clientPath } from '../clientLists';
import { dateTime } from '../../common/format';
import { OVERRIDES_RESOURCE } from '../overridesData';

const Column = DataTable.Col<RunningOverride>;

const clientName = (row: RunningOverride, unknown: string) => [row.first_name, row.last_name].filter(Boolean).join(' ') || row.email_address || unknown;

const ClientCell = () => {
  const row = useRecordContext<RunningOverride>();
  const translate = useTranslate();
  if (!row) return null;
  return (
    <Link component={RouterLink} to={clientPath(row.id)}>
      {clientName(row, translate('client.unknown'))}
    </Link>
  );
};
const WhenCell = ({ field }: { field: 'starts_at' | 'ends_at' }) => {
  const row = useRecordContext<RunningOverride>();
  return <>{row?.[field] ? dateTime(row[field]) : ''}</>;
};

/** The 'ending within 7 days' chip: a filter in the URL like any other. */
const EndingSoonChip = () => {
  const translate = useTranslate();
  const { filterValues, setFilters } = useListContext();
  const on = filterValues.ending_within_days === OVERRIDE_ENDING_SOON_DAYS;
  return (
    <Stack direction="row" spacing={1} sx={{ mb: 2 }}>
      <Chip
        label={translate('overrides.ending_soon', { smart_count: OVERRIDE_ENDING_SOON_DAYS })}
        color={on ? 'primary' : 'default'}
        variant={on ? 'filled' : 'outlined'}
        aria-pressed={on}
        onClick={() => setFilters(on ? {} : { ending_within_days: OVERRIDE_ENDING_SOON_DAYS }, {})}
      />
    </Stack>
  );
};

/** Clients › Overrides: every running override, the soonest end first; a row opens the client. */
const OverrideList = () => {
  const translate = useTranslate();
  const isPhone = useIsPhone();
  const unknown = translate('client.unknown');
  return (
    <Box>
      <PageHeader title={translate('overrides.title')} />
      <List
        resource={OVERRIDES_RESOURCE}
        title={false}
        actions={false}
        sort={{ field: 'ends_at', order: 'ASC' }}
        perPage={25}
        empty={false}
        disableSyncWithLocation={false}
        sx={{ '& .RaList-main': { minWidth: 0 }, '& .RaList-content': { overflowX: 'auto' } }}
      >
        <EndingSoonChip />
        {isPhone ? (
          <SimpleList<RunningOverride>
            rowClick={(id) => clientPath(id)}
            primaryText={(row) => clientName(row, unknown)}
            secondaryText={(row) => `${row.level_name ?? unknown} · ${translate('overrides.until', { date: dateTime(row.ends_at) })}`}
            tertiaryText={(row) => row.reason ?? ''}
          />
        ) : (
          <DataTable bulkActionButtons={false} rowClick={false} empty={<Typography sx={{ p: 2 }}>{translate('overrides.empty')}</Typography>}>
            <Column label="overrides.columns.client" disableSort field={ClientCell} />
            <Column source="level_name" label="overrides.columns.level" disableSort />
            <Column source="starts_at" label="overrides.columns.starts_at" field={() => <WhenCell field="starts_at" />} />
            <Column source="ends_at" label="overrides.columns.ends_at" field={() => <WhenCell field="ends_at" />} />
            <Column source="granted_by" label="overrides.columns.granted_by" disableSort />
            <Column source="reason" label="overrides.columns.reason" disableSort />
          </DataTable>
        )}
      </List>
    </Box>
  );
};

export default OverrideList;
