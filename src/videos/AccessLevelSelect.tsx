import { MenuItem, Select } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { VIDEO_ACCESS_LEVELS, type AdminVideo } from '@contract/videos';
import { useSaveVideoField } from './useSaveVideoField';

/** The Access Level column: a dropdown preset from the record, saves at once (undoable). */
export const AccessLevelSelect = () => {
  const record = useRecordContext<AdminVideo>();
  const translate = useTranslate();
  const save = useSaveVideoField();
  if (!record) return null;
  return (
    <Select
      size="small"
      value={record.access_level_id}
      disabled={record.deleted_at !== null}
      onChange={(event) => {
        const level = Number(event.target.value);
        save(record, { access_level_id: level }, { message: 'videos.notify.level_saved', args: { level: translate(`videos.access_levels.${level}`) } });
      }}
      inputProps={{ 'aria-label': translate('videos.aria.access_level', { title: record.title }) }}
      sx={{ minWidth: 170 }}
    >
      {VIDEO_ACCESS_LEVELS.map(({ id }) => (
        <MenuItem key={id} value={id}>
          {translate(`videos.access_levels.${id}`)}
        </MenuItem>
      ))}
    </Select>
  );
};
