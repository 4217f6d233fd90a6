import type { ReactNode } from 'react';
import { Box, Paper, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { DebugRecord } from '@contract/clients';
import { dateTime, formattedData, sizeLabel } from '../../common/format';

const Field = ({ label, children }: { label: string; children: ReactNode }) => (
  <Box sx={{ display: 'contents' }}>
    <Typography component="dt" variant="body2" color="text.secondary">
      {label}
    </Typography>
    <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
      {children}
    </Typography>
  </Box>
);

const Group = ({ title, children }: { title: string; children: ReactNode }) => (
  <Box sx={{ flex: '1 1 300px' }}>
    <Typography variant="subtitle2" component="h3">
      {title}
    </Typography>
    <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}>
      {children}
    </Box>
  </Box>
);

const Data = ({ label, value }: { label: string; value: unknown }) => (
  <Box sx={{ flex: '1 1 300px', minWidth: 0 }}>
    <Typography variant="subtitle2" component="h3">
      {label}
    </Typography>
    <Box component="pre" sx={{ m: 0, p: 1, bgcolor: 'action.hover', borderRadius: 1, fontSize: 12, overflow: 'auto' }}>
      {formattedData(value)}
    </Box>
  </Box>
);

/** One debug report of the app: local fields, device info, app version, sent-at and raw device data. */
export const DebugRecordCard = ({ record }: { record: DebugRecord }) => {
  const translate = useTranslate();
  const f = (key: string) => translate(`client.sections.debug.fields.${key}`);
  const g = (key: string) => translate(`client.sections.debug.groups.${key}`);
  const yesNo = (value: boolean | null) => (value === null ? '' : translate(value ? 'ra.boolean.true' : 'ra.boolean.false'));
  return (
    <Paper variant="outlined" sx={{ p: 1.5, mb: 1, display: 'flex', flexWrap: 'wrap', gap: 2 }} data-testid="debug-record">
      <Group title={g('local')}>
        <Field label={f('email')}>{record.email}</Field>
        <Field label={f('mb_client_id')}>{record.mb_client_id}</Field>
        <Field label={f('app_access_level')}>{record.app_access_level}</Field>
        <Field label={f('firebase_token_new')}>{record.firebase_token_new}</Field>
        <Field label={f('firebase_token_current')}>{record.firebase_token_current}</Field>
      </Group>
      <Group title={g('device')}>
        <Field label={f('platform')}>{record.platform}</Field>
        <Field label={f('platform_version')}>{record.platform_version}</Field>
        <Field label={f('is_ipad')}>{yesNo(record.is_ipad)}</Field>
        <Field label={f('screen_size')}>{sizeLabel(record.screen_width, record.screen_height)}</Field>
        <Field label={f('device_size')}>{sizeLabel(record.device_width, record.device_height)}</Field>
        <Field label={f('ip')}>{record.ip}</Field>
      </Group>
      <Group title={g('app')}>
        <Field label={f('app_version')}>{record.app_version}</Field>
        <Field label={f('sent_at')}>{dateTime(record.sent_at)}</Field>
      </Group>
      <Data label={f('device_constants')} value={record.device_constants} />
      <Data label={f('network_info')} value={record.network_info} />
    </Paper>
  );
};
