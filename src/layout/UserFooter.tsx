import { useState, type MouseEvent } from 'react';
import { Avatar, Box, IconButton, ListItemIcon, Menu, MenuItem, Typography } from '@mui/material';
import LogoutIcon from '@mui/icons-material/Logout';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import DevicesIcon from '@mui/icons-material/DevicesOutlined';
import PasswordIcon from '@mui/icons-material/PasswordOutlined';
import { useNavigate } from 'react-router-dom';
import { SESSIONS_PATH } from '../sessions';
import { ChangePasswordDialog } from '../staff';
import { useGetIdentity, useLogout, useSidebarState, useTranslate } from 'react-admin';
import { useCloseDrawerOnPhone } from './useCloseDrawerOnPhone';

/** Bottom of the sidebar (spec §1): the signed-in user and a menu with 'My sessions', 'Change password' (ours) and 'Log out'. */
export const UserFooter = () => {
  const { identity } = useGetIdentity();
  const logout = useLogout();
  const navigate = useNavigate();
  const translate = useTranslate();
  const [sidebarOpen] = useSidebarState();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [changingPassword, setChangingPassword] = useState(false);
  const closeDrawer = useCloseDrawerOnPhone();

  if (!identity) return null;
  const nickname = String(identity.fullName ?? '');
  const email = String(identity.email ?? '');
  const menuLabel = translate('app.user.menu');
  const avatar = (size: number) => (
    <Avatar src={identity.avatar || undefined} alt={nickname} sx={{ width: size, height: size }}>
      {nickname.charAt(0).toUpperCase()}
    </Avatar>
  );

  return (
    <Box component="footer" sx={{ display: 'flex', alignItems: 'center', gap: 1.25, px: 1.25, py: 1.25, flexShrink: 0, borderTop: 1, borderColor: 'divider' }}>
      {sidebarOpen && avatar(36)}
      {sidebarOpen && (
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Typography variant="body2" noWrap sx={{ fontWeight: 600 }}>
            {nickname}
          </Typography>
          <Typography variant="caption" component="p" noWrap color="text.secondary" title={email}>
            {email}
          </Typography>
        </Box>
      )}
      <IconButton
        aria-label={menuLabel}
        aria-haspopup="menu"
        aria-expanded={anchor ? true : undefined}
        onClick={(event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget)}
        size="small"
        sx={{ ml: sidebarOpen ? 0 : -0.25 }}
      >
        {/* In the icon-only sidebar the avatar itself opens the menu. */}
        {sidebarOpen ? <MoreVertIcon /> : avatar(28)}
      </IconButton>
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
        transformOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      >
        <MenuItem
          onClick={() => {
            setAnchor(null);
            closeDrawer();
            navigate(SESSIONS_PATH);
          }}
        >
          <ListItemIcon>
            <DevicesIcon fontSize="small" />
          </ListItemIcon>
          {translate('app.user.sessions')}
        </MenuItem>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            setChangingPassword(true);
          }}
        >
          <ListItemIcon>
            <PasswordIcon fontSize="small" />
          </ListItemIcon>
          {translate('app.user.change_password')}
        </MenuItem>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            // authProvider.logout sends the browser to the server's /logout.
            void logout();
          }}
        >
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          {translate('app.user.logout')}
        </MenuItem>
      </Menu>
      <ChangePasswordDialog open={changingPassword} onClose={() => setChangingPassword(false)} />
    </Box>
  );
};
