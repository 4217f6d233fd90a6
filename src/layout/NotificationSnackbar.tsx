import { Notification as RaNotification } from 'react-admin';
import { NotificationCloseButton } from './NotificationCloseButton';

// The spec wants toasts closable; react-admin's only close on click-away/Escape. Options given to
// notify() win over these props, which is how UndoableActions replaces the Close button.
const NotificationSnackbar = () => <RaNotification action={<NotificationCloseButton />} />;

export default NotificationSnackbar;
