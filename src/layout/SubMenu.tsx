import type { ReactElement, ReactNode } from 'react';
import { Collapse, List, ListItemIcon, Tooltip, Typography } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { useSidebarState, useStore, useTranslate } from 'react-admin';
import type { MessageKey } from '../providers/i18nProvider';
import { NavButton } from './NavButton';

export interface SubMenuProps {
  /** Stable id: names the stored open/closed state and the list element. */
  id: string;
  label: MessageKey;
  icon: ReactElement;
  children: ReactNode;
}

/**
 * A collapsible sidebar group ("collapsible groups (animated expand)"): a disclosure
 * button (Tab reaches it, Enter or Space opens and closes it) over its entries.
 */
export const SubMenu = ({ id, label, icon, children }: SubMenuProps) => {
  const translate = useTranslate();
  const [sidebarOpen] = useSidebarState();
  // useStore keeps the state across reloads (localStorage) like react-admin's own sidebar state.
  const [open, setOpen] = useStore(`menu.groups.${id}.open`, true);
  const text = translate(label);
  const listId = `menu-group-${id}`;

  const header = (
    <NavButton
      onClick={() => setOpen(!open)}
      aria-expanded={open}
      aria-controls={listId}
      // The icon-only sidebar has no visible text: the button still needs its name.
      aria-label={sidebarOpen ? undefined : text}
      sx={{ color: 'text.secondary', fontWeight: 600 }}
    >
      <ListItemIcon>{icon}</ListItemIcon>
      <Typography variant="inherit" noWrap sx={{ flexGrow: 1 }}>
        {text}
      </Typography>
      {sidebarOpen && (
        <ExpandMoreIcon
          fontSize="small"
          sx={(theme) => ({
            transition: theme.transitions.create('transform'),
            transform: open ? 'rotate(180deg)' : 'none',
          })}
        />
      )}
    </NavButton>
  );

  return (
    <>
      {sidebarOpen ? (
        header
      ) : (
        <Tooltip title={text} placement="right">
          {header}
        </Tooltip>
      )}
      <Collapse in={open} timeout="auto">
        <List
          id={listId}
          component="div"
          role="group"
          aria-label={text}
          disablePadding
          // Indent the entries under their header, but not in the icon-only sidebar.
          sx={{ '& .MuiMenuItem-root, & .MuiListItemButton-root': { pl: sidebarOpen ? 3.5 : 2 } }}
        >
          {children}
        </List>
      </Collapse>
    </>
  );
};
