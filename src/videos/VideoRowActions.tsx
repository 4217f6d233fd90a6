import { useState } from 'react';
import { IconButton, Stack, Tooltip } from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import RestoreIcon from '@mui/icons-material/RestoreFromTrash';
import { Confirm, Link, useDelete, useNotify, useRecordContext, useRefresh, useTranslate, useUpdate } from 'react-admin';
import type { AdminVideo } from '@contract/videos';
import { errorText } from './useSaveVideoField';

const DeleteVideoButton = ({ record }: { record: AdminVideo }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const [deleteOne, { isPending }] = useDelete<AdminVideo>();
  const confirm = () =>
    deleteOne(
      'videos',
      { id: record.id, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setOpen(false);
          notify('videos.notify.deleted', { type: 'info' });
        },
        onError: (error) => {
          setOpen(false);
          notify('videos.notify.delete_failed', { type: 'error', messageArgs: { error: errorText(error) } });
        },
      },
    );
  const label = translate('videos.actions.delete');
  return (
    <>
      <Tooltip title={label}>
        <IconButton aria-label={label} onClick={() => setOpen(true)}>
          <DeleteIcon />
        </IconButton>
      </Tooltip>
      <Confirm
        isOpen={open}
        loading={isPending}
        title="videos.delete_dialog.title"
        titleTranslateOptions={{ title: record.title }}
        content="videos.delete_dialog.content"
        confirm="videos.actions.delete"
        confirmColor="warning"
        onConfirm={confirm}
        onClose={() => setOpen(false)}
      />
    </>
  );
};

const RestoreVideoButton = ({ record }: { record: AdminVideo }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [update, { isPending }] = useUpdate<AdminVideo>();
  const restore = () =>
    update(
      'videos',
      { id: record.id, data: { deleted_at: null }, previousData: record },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify('videos.notify.restored', { type: 'info' });
          refresh();
        },
        onError: (error) => notify('videos.notify.restore_failed', { type: 'error', messageArgs: { error: errorText(error) } }),
      },
    );
  const label = translate('videos.actions.restore');
  return (
    <Tooltip title={label}>
      <IconButton aria-label={label} onClick={restore} disabled={isPending}>
        <RestoreIcon />
      </IconButton>
    </Tooltip>
  );
};

/** The Actions column (spec: delete and edit icon buttons); a deleted video offers Restore instead. */
export const VideoRowActions = () => {
  const record = useRecordContext<AdminVideo>();
  const translate = useTranslate();
  if (!record) return null;
  if (record.deleted_at) return <RestoreVideoButton record={record} />;
  const edit = translate('videos.actions.edit');
  return (
    <Stack direction="row">
      <DeleteVideoButton record={record} />
      <Tooltip title={edit}>
        <IconButton aria-label={edit} component={Link} to={`/videos/${record.id}`}>
          <EditIcon />
        </IconButton>
      </Tooltip>
    </Stack>
  );
};
