import { Alert, Box, Button, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { failureReason } from '../messaging/failureReason';
import { useConsoleDataProvider } from '../providers/dataProvider';
import { clientFilterOf } from '../common/listPaging';

/** 'Preview': how many clients `values` (the form's filter) select now, and the first five (POST /segments/preview). */
export const SegmentPreviewPanel = ({ values }: { values: Record<string, unknown> | undefined }) => {
  const translate = useTranslate();
  const dataProvider = useConsoleDataProvider();
  const preview = useMutation({ mutationFn: () => dataProvider.previewSegment(clientFilterOf(values)) });
  const result = preview.data;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1, width: '100%' }} aria-live="polite">
      <Button variant="outlined" onClick={() => preview.mutate()} loading={preview.isPending} sx={{ alignSelf: 'flex-start' }}>
        {translate('segments.preview')}
      </Button>
      {preview.isError && <Alert severity="error">{failureReason(preview.error, () => undefined) ?? translate('segments.preview_failed')}</Alert>}
      {result && (
        <>
          <Typography role="status">
            {translate(result.count_is_estimate ? 'segments.count_estimate' : 'segments.count', {
              smart_count: result.count,
              count: result.count.toLocaleString(),
            })}
          </Typography>
          {result.sample.length > 0 && (
            <Typography variant="body2" color="text.secondary">
              {result.sample.map((client) => [client.first_name, client.last_name].filter(Boolean).join(' ') || client.email_address).join(', ')}
            </Typography>
          )}
        </>
      )}
    </Box>
  );
};
