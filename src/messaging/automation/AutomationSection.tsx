import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'react-admin';
import { AutomationCounts } from './AutomationCounts';
import { AutomationOutcomes } from './AutomationOutcomes';
import { AutomationPreview } from './AutomationPreview';
import { AutomationSettingsForm } from './AutomationSettingsForm';
import { SendTestControls } from './SendTestControls';
import { useAutomationSettings } from './useAutomation';

/** Automated sending of one message type: trigger settings, preview, test send and the last 30 days. */
export const AutomationSection = ({ typeId }: { typeId: number }) => {
  const translate = useTranslate();
  const settings = useAutomationSettings(typeId);
  return (
    <Paper component="section" variant="outlined" aria-labelledby="automation-title" sx={{ p: 2, mt: 3 }}>
      <Typography id="automation-title" variant="h6" component="h2">
        {translate('messaging.automation.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate(`messaging.automation.trigger.${typeId}`)}
      </Typography>
      {settings.isPending ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
          <CircularProgress size={24} aria-label={translate('messaging.automation.loading')} />
        </Box>
      ) : settings.isError ? (
        <Alert severity="error">{translate('messaging.automation.load_failed')}</Alert>
      ) : (
        <>
          {/* keyed by the stored values so a save or another tab's change resets the form */}
          <AutomationSettingsForm key={JSON.stringify([settings.data.settings, settings.data.global])} typeId={typeId} stored={settings.data} />
          <SendTestControls typeId={typeId} storedToken={settings.data.staff_device_token} />
          <AutomationPreview typeId={typeId} timeZone={settings.data.time_zone} />
        </>
      )}
      <AutomationCounts typeId={typeId} />
      <AutomationOutcomes typeId={typeId} />
    </Paper>
  );
};
