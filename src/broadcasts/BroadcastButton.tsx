import { useState } from 'react';
import { Button } from '@mui/material';
import CampaignIcon from '@mui/icons-material/CampaignOutlined';
import { useTranslate } from 'react-admin';
import { useCan } from '../layout/useCan';
import { BroadcastDialog, type BroadcastTarget } from './BroadcastDialog';

/** 'Broadcast': a push to every client of a segment or the at-risk list (only for roles with messaging.edit). */
export const BroadcastButton = (props: { target: BroadcastTarget; recipients: number; estimate?: boolean }) => {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (!useCan('broadcasts', 'create')) return null;
  return (
    <>
      <Button variant="contained" startIcon={<CampaignIcon />} onClick={() => setOpen(true)} disabled={props.recipients === 0}>
        {translate('broadcasts.broadcast')}
      </Button>
      <BroadcastDialog {...props} open={open} onClose={() => setOpen(false)} />
    </>
  );
};
