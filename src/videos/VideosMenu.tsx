import VideoLibraryIcon from '@mui/icons-material/VideoLibraryOutlined';
import { SubMenu } from '../layout/SubMenu';
import { useCan } from '../layout/useCan';
import { SyncVimeoButton } from './SyncVimeoButton';

/** Spec §2: this group holds only the sync button; /videos has no sidebar link. */
export const VideosMenu = () => {
  const allowed = useCan('videos', 'list');
  if (!allowed) return null;
  return (
    <SubMenu id="videos" label="menu.video_manager" icon={<VideoLibraryIcon />}>
      <SyncVimeoButton />
    </SubMenu>
  );
};
