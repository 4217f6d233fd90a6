import { FormControlLabel, FormHelperText, Switch, Box } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import { useConsoleDataProvider } from '../providers/dataProvider';

/** The owner's rule on the Staff screen: two-step sign-in for every staff account (audited). */
export const RequireTwoStepSwitch = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useConsoleDataProvider();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: ['security-settings'], queryFn: () => dataProvider.securitySettings() });
  const save = useMutation({
    mutationFn: (required: boolean) => dataProvider.saveSecuritySettings({ require_two_step: required }),
    onSuccess: (answer) => queryClient.setQueryData(['security-settings'], answer),
    onError: (failure: Error) => notify(failure.message, { type: 'error' }),
  });
  return (
    <Box sx={{ mb: 2 }}>
      <FormControlLabel
        control={
          <Switch
            checked={settings.data?.require_two_step ?? false}
            disabled={!settings.data || save.isPending}
            onChange={(event) => save.mutate(event.target.checked)}
            slotProps={{ input: { 'aria-describedby': 'require-two-step-help' } }}
          />
        }
        label={translate('account.two_step.require')}
      />
      <FormHelperText id="require-two-step-help">{translate('account.two_step.require_help')}</FormHelperText>
    </Box>
  );
};
