import { ListItemIcon, Menu, MenuItem } from '@mui/material';
import LogoutIcon from '@mui/icons-material/Logout';
import DevicesIcon from '@mui/icons-material/DevicesOutlined';
import PasswordIcon from '@mui/icons-material/PasswordOutlined';
import { useTranslate } from 'react-admin';

export interface UserMenuProps {
  anchor: HTMLElement | null;
  onClose(): void;
  onSessions(): void;
  onChangePassword(): void;
  onLogout(): void;
}

/** The user footer's menu: 'My sessions', 'Change password' (ours) and 'Log out'. Loaded on first use. */
const UserMenu = ({ anchor, onClose, onSessions, onChangePassword, onLogout }: UserMenuProps) => {
  const translate = useTranslate();
  return (
    <Menu
      anchorEl={anchor}
      open={anchor !== null}
      onClose={onClose}
      anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
      transformOrigin={{ vertical: 'bottom', horizontal: 'right' }}
    >
      <MenuItem onClick={onSessions}>
        <ListItemIcon>
          <DevicesIcon fontSize="small" />
        </ListItemIcon>
        {translate('app.user.sessions')}
      </MenuItem>
      <MenuItem onClick={onChangePassword}>
        <ListItemIcon>
          <PasswordIcon fontSize="small" />
        </ListItemIcon>
        {translate('app.user.change_password')}
      </MenuItem>
      <MenuItem onClick={onLogout}>
        <ListItemIcon>
          <LogoutIcon fontSize="small" />
        </ListItemIcon>
        {translate('app.user.logout')}
      </MenuItem>
    </Menu>
  );
};

export default UserMenu;
