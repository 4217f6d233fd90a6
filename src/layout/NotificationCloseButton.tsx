import { IconButton } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { useCloseNotification, useTranslate } from 'react-admin';

export const NotificationCloseButton = () => {
  const close = useCloseNotification();
  const translate = useTranslate();
  return (
    <IconButton size="small" color="inherit" aria-label={translate('app.notification.close')} onClick={close}>
      <CloseIcon fontSize="small" />
    </IconButton>
  );
};
