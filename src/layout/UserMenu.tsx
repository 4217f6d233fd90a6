import { ListItemIcon, Menu, MenuItem } from '@mui/material';
import LogoutIcon from '@mui/icons-material/Logout';
import DevicesIcon from '@mui/icons-material/DevicesOutlined';
import PasswordIcon from '@mui/icons-material/PasswordOutlined';
import TwoStepIcon from '@mui/icons-material/PhonelinkLockOutlined';
import HistoryIcon from '@mui/icons-material/HistoryOutlined';
import { useTranslate } from 'react-admin';

export interface UserMenuProps {
  anchor: HTMLElement | null;
  onClose(): void;
  onSessions(): void;
  onChangePassword(): void;
  onTwoStep(): void;
  onSignIns(): void;
  onLogout(): void;
}

/** The user footer's menu: 'My sessions', 'Change password', 'Two-step sign-in', 'Sign-in history' (ours) and 'Log out'. Loaded on first use. */
const UserMenu = ({ anchor, onClose, onSessions, onChangePassword, onTwoStep, onSignIns, onLogout }: UserMenuProps) => {
  const translate = useTranslate();
  const entries = [
    { key: 'sessions', Icon: DevicesIcon, onClick: onSessions },
    { key: 'change_password', Icon: PasswordIcon, onClick: onChangePassword },
    { key: 'two_step', Icon: TwoStepIcon, onClick: onTwoStep },
    { key: 'sign_ins', Icon: HistoryIcon, onClick: onSignIns },
    { key: 'logout', Icon: LogoutIcon, onClick: onLogout },
  ];
  return (
    <Menu
      anchorEl={anchor}
      open={anchor !== null}
      onClose={onClose}
      anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
      transformOrigin={{ vertical: 'bottom', horizontal: 'right' }}
    >
      {entries.map(({ key, Icon, onClick }) => (
        <MenuItem key={key} onClick={onClick}>
          <ListItemIcon>
            <Icon fontSize="small" />
          </ListItemIcon>
          {translate(`app.user.${key}`)}
        </MenuItem>
      ))}
    </Menu>
  );
};

export default UserMenu;
