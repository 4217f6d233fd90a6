import VideoLibraryIcon from '@mui/icons-material/VideoLibraryOutlined';
import VideoListIcon from '@mui/icons-material/OndemandVideoOutlined';
import { MenuItemLink } from 'react-admin';
import { SubMenu } from '../layout/SubMenu';
import { useCan } from '../layout/useCan';
import { SyncVimeoButton } from './SyncVimeoButton';

/**
 * The spec's group holds only the sync button; ours adds the video list (/videos) above it, so every
 * role that edits videos (the content role has no dashboard card leading there) reaches it.
 */
export const VideosMenu = () => {
  const allowed = useCan('videos', 'list');
  if (!allowed) return null;
  return (
    <SubMenu id="videos" label="menu.video_manager" icon={<VideoLibraryIcon />}>
      <MenuItemLink to="/videos" primaryText="menu.all_videos" leftIcon={<VideoListIcon />} role="link" />
      <SyncVimeoButton />
    </SubMenu>
  );
};
