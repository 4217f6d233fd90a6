import { Switch } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import type { AdminVideo } from '@contract/videos';
import { useSaveVideoField } from './useSaveVideoField';

/** The Enabled column: preset from the record, saves at once (undoable). */
export const EnabledSwitch = () => {
  const record = useRecordContext<AdminVideo>();
  const translate = useTranslate();
  const save = useSaveVideoField();
  if (!record) return null;
  return (
    <Switch
      checked={record.enabled}
      disabled={record.deleted_at !== null}
      onChange={(event) =>
        save(record, { enabled: event.target.checked }, { message: event.target.checked ? 'videos.notify.enabled' : 'videos.notify.disabled' })
      }
      slotProps={{ input: { 'aria-label': translate('videos.aria.enabled', { title: record.title }) } }}
    />
  );
};
