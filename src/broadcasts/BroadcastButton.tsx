import { Suspense, useState } from 'react';
import { lazyChunk } from '../common/chunks';
import { Button } from '@mui/material';
import CampaignIcon from '@mui/icons-material/CampaignOutlined';
import { useTranslate } from 'react-admin';
import { useCan } from '../layout/useCan';
import type { BroadcastTarget } from './BroadcastDialog';

// The dialog (its form and schedule fields) is fetched on first use; pointing at the button starts it.
const loadDialog = () => import('./BroadcastDialog');
const BroadcastDialog = lazyChunk(() => loadDialog().then((module) => ({ default: module.BroadcastDialog })));

/** 'Broadcast': a push to every client of a segment or the at-risk list (only for roles with messaging.edit). */
export const BroadcastButton = (props: { target: BroadcastTarget; recipients: number; estimate?: boolean }) => {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  if (!useCan('broadcasts', 'create')) return null;
  return (
    <>
      <Button
        variant="contained"
        startIcon={<CampaignIcon />}
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
        onPointerEnter={() => void loadDialog()}
        onFocus={() => void loadDialog()}
        disabled={props.recipients === 0}
      >
        {translate('broadcasts.broadcast')}
      </Button>
      {wanted && (
        <Suspense fallback={null}>
          <BroadcastDialog {...props} open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
};
