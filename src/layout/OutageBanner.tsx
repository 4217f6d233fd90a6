import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { Alert, Box, Button } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { serverReachability as defaultReachability, type ServerReachability } from '../providers/serverReachability';

/** Seconds until the next try, counted down while the banner shows. */
const useSecondsUntil = (at: number | null) => {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (at === null) return undefined;
    setNow(Date.now());
    const tick = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(tick);
  }, [at]);
  return at === null ? 0 : Math.max(0, Math.ceil((at - now) / 1_000));
};

/**
 * While the server cannot be reached: says so, counts down to the next try and offers one now.
 * When it is back, every page's data is asked for again, so what failed meanwhile recovers by itself.
 */
export const OutageBanner = ({ reachability = defaultReachability }: { reachability?: ServerReachability }) => {
  const translate = useTranslate();
  const queryClient = useQueryClient();
  const { reachable, nextTryAt } = useSyncExternalStore(reachability.subscribe, reachability.get);
  const seconds = useSecondsUntil(reachable ? null : nextTryAt);
  const wasReachable = useRef(reachable);
  useEffect(() => {
    // Access answers are the role's, known for the page's life: only data is asked again.
    if (reachable && !wasReachable.current) void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== 'auth' });
    wasReachable.current = reachable;
  }, [reachable, queryClient]);
  return (
    // Kept in sight under the app bar while the page scrolls (a long form, a list).
    <Box role="status" aria-live="polite" sx={{ position: 'sticky', top: { xs: 56, sm: 48 }, zIndex: 'appBar' }}>
      {!reachable && (
        <Alert
          severity="warning"
          sx={{ mb: 2, mt: 1 }}
          action={
            <Button color="inherit" size="small" onClick={reachability.tryNow} sx={{ whiteSpace: 'nowrap' }}>
              {translate('app.outage.try_now')}
            </Button>
          }
        >
          {translate('app.outage.unreachable')} {/* The countdown is for the eye: a screen reader hears the outage once, not every second. */}
          <span aria-hidden="true">{seconds > 0 ? translate('app.outage.next_try', { seconds }) : translate('app.outage.trying')}</span>
        </Alert>
      )}
    </Box>
  );
};
