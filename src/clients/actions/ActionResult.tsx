import { Typography } from '@mui/material';
import type { ActionOutcome } from './useTimedResult';

/** The Saved/Sent/Error indicator of the action modals. */
export const ActionResult = ({
  outcome,
  success,
  error,
  detail,
}: {
  outcome: ActionOutcome | null;
  success: string;
  error: string;
  detail?: string | null;
}) => (
  <Typography
    role="status"
    aria-live="polite"
    component="span"
    fontWeight="bold"
    color={outcome === 'error' ? 'error' : 'success.main'}
    sx={{ mr: 'auto', pl: 1, minHeight: '1.5em' }}
  >
    {outcome === null ? '' : outcome === 'success' ? success : error}
    {detail ? (
      <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block', fontWeight: 'normal' }}>
        {detail}
      </Typography>
    ) : null}
  </Typography>
);
