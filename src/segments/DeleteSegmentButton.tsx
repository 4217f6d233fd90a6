import { useState } from 'react';
import { Button } from '@mui/material';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import { Confirm, useDelete, useNotify, useRedirect, useTranslate } from 'react-admin';
import { useCan } from '../layout/useCan';
import { SEGMENTS_RESOURCE, type SegmentRecord } from './segmentsData';

/** 'Delete segment' on a segment's page, after a confirmation; the clients are not touched. */
export const DeleteSegmentButton = ({ segment }: { segment: SegmentRecord }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const [open, setOpen] = useState(false);
  const [remove, { isPending }] = useDelete<SegmentRecord>();
  if (!useCan('segments', 'delete')) return null;
  const confirm = () =>
    remove(
      SEGMENTS_RESOURCE,
      { id: segment.id, previousData: segment },
      {
        onSuccess: () => redirect('/clients/all'),
        onError: (error) => notify(error instanceof Error ? error.message : String(error), { type: 'error' }),
      },
    );
  return (
    <>
      <Button color="error" startIcon={<DeleteIcon />} onClick={() => setOpen(true)}>
        {translate('segments.delete')}
      </Button>
      <Confirm
        isOpen={open}
        loading={isPending}
        title={translate('segments.delete_title', { name: segment.name })}
        content={translate('segments.delete_content')}
        onConfirm={confirm}
        onClose={() => setOpen(false)}
      />
    </>
  );
};
