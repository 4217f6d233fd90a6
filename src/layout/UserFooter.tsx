import { Suspense, useState, type MouseEvent } from 'react';
import { lazyChunk } from '../common/chunks';
import { Avatar, Box, IconButton, Typography } from '@mui/material';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import { useNavigate } from 'react-router-dom';
import { SESSIONS_PATH } from '../sessions';
import { useGetIdentity, useLogout, useSidebarState, useTranslate } from 'react-admin';
import { useCloseDrawerOnPhone } from './useCloseDrawerOnPhone';

// Not part of the first download (MUI's Menu, the password form): most visits never open them.
const loadUserMenu = () => import('./UserMenu');
const UserMenu = lazyChunk(loadUserMenu);
const ChangePasswordDialog = lazyChunk(() => import('../staff/ChangePasswordDialog').then((module) => ({ default: module.ChangePasswordDialog })));
const TwoStepDialog = lazyChunk(() => import('../twoStep/TwoStepDialog').then((module) => ({ default: module.TwoStepDialog })));
const SignInHistoryDialog = lazyChunk(() => import('../twoStep/SignInHistoryDialog').then((module) => ({ default: module.SignInHistoryDialog })));

/** Bottom of the sidebar: the signed-in user and a menu with 'My sessions', 'Change password' (ours) and 'Log out'. */
export const UserFooter = () => {
  const { identity } = useGetIdentity();
  const logout = useLogout();
  const navigate = useNavigate();
  const translate = useTranslate();
  const [sidebarOpen] = useSidebarState();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [changingPassword, setChangingPassword] = useState(false);
  const [twoStepOpen, setTwoStepOpen] = useState(false);
  const [twoStepWanted, setTwoStepWanted] = useState(false);
  const [signInsOpen, setSignInsOpen] = useState(false);
  const [menuWanted, setMenuWanted] = useState(false);
  const [dialogWanted, setDialogWanted] = useState(false);
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
        onClick={(event: MouseEvent<HTMLElement>) => {
          setMenuWanted(true);
          setAnchor(event.currentTarget);
        }}
        onPointerEnter={() => void loadUserMenu()}
        onFocus={() => void loadUserMenu()}
        size="small"
        sx={{ ml: sidebarOpen ? 0 : -0.25 }}
      >
        {/* In the icon-only sidebar the avatar itself opens the menu. */}
        {sidebarOpen ? <MoreVertIcon /> : avatar(28)}
      </IconButton>
      {/* Menu and dialog are fetched when first wanted (pointing at the button fetches the menu). */}
      {menuWanted && (
        <Suspense fallback={null}>
          <UserMenu
            anchor={anchor}
            onClose={() => setAnchor(null)}
            onSessions={() => {
              setAnchor(null);
              closeDrawer();
              navigate(SESSIONS_PATH);
            }}
            onChangePassword={() => {
              setAnchor(null);
              setChangingPassword(true);
              setDialogWanted(true);
            }}
            onTwoStep={() => {
              setAnchor(null);
              setTwoStepOpen(true);
              setTwoStepWanted(true);
            }}
            onSignIns={() => {
              setAnchor(null);
              setSignInsOpen(true);
            }}
            onLogout={() => {
              setAnchor(null);
              // authProvider.logout sends the browser to the server's /logout.
              void logout();
            }}
          />
        </Suspense>
      )}
      {dialogWanted && (
        <Suspense fallback={null}>
          <ChangePasswordDialog open={changingPassword} onClose={() => setChangingPassword(false)} />
        </Suspense>
      )}
      {twoStepWanted && (
        <Suspense fallback={null}>
          <TwoStepDialog open={twoStepOpen} onClose={() => setTwoStepOpen(false)} />
        </Suspense>
      )}
      {signInsOpen && (
        <Suspense fallback={null}>
          <SignInHistoryDialog open onClose={() => setSignInsOpen(false)} />
        </Suspense>
      )}
    </Box>
  );
};
