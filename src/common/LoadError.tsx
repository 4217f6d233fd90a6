import { Alert, AlertTitle } from '@mui/material';
import { useTranslate } from 'react-admin';

/** react-admin's error texts for a screen whose data did not load: never a blank page. */
export const LoadError = ({ error }: { error?: unknown }) => {
  const translate = useTranslate();
  const detail = error instanceof Error ? error.message : undefined;
  return (
    <Alert severity="error" sx={{ m: 2 }}>
      <AlertTitle>{translate('ra.page.error')}</AlertTitle>
      {detail ?? translate('ra.message.error')}
    </Alert>
  );
};
