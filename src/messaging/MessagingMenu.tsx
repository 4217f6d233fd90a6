import type { ReactElement } from 'react';
import { MenuItemLink } from 'react-admin';
import ForumIcon from '@mui/icons-material/ForumOutlined';
import HighFiveIcon from '@mui/icons-material/FrontHandOutlined';
import MissedClassIcon from '@mui/icons-material/EventBusyOutlined';
import NoteToSelfIcon from '@mui/icons-material/StickyNote2Outlined';
import MondayMorningIcon from '@mui/icons-material/WbSunnyOutlined';
import CancelledClassIcon from '@mui/icons-material/CancelOutlined';
import ExtendedAbsenseIcon from '@mui/icons-material/HourglassEmptyOutlined';
import { SubMenu } from '../layout/SubMenu';
import { useCan } from '../layout/useCan';
import { messageTypes, messagingPath, type MessageType } from './messageTypes';

const messageTypeIcons: Record<MessageType['id'], ReactElement> = {
  1: <HighFiveIcon />,
  2: <MissedClassIcon />,
  3: <NoteToSelfIcon />,
  4: <MondayMorningIcon />,
  5: <CancelledClassIcon />,
  6: <ExtendedAbsenseIcon />,
};

/** The Messaging group, one page per message type. */
export const MessagingMenu = () => {
  const allowed = useCan('messaging', 'edit');
  if (!allowed) return null;
  return (
    <SubMenu id="messaging" label="menu.messaging" icon={<ForumIcon />}>
      {messageTypes.map((type) => (
        <MenuItemLink key={type.id} to={messagingPath(type)} primaryText={type.labelKey} leftIcon={messageTypeIcons[type.id]} role="link" />
      ))}
    </SubMenu>
  );
};
