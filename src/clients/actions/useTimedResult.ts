import { useCallback, useEffect, useRef, useState } from 'react';

export type ActionOutcome = 'success' | 'error';

/**
 * A result shown for `ms`, then cleared (and `onDone` called, e.g. to close the modal). A new
 * result restarts the time; unmounting cancels it.
 */
export function useTimedResult(ms: number, onDone?: (outcome: ActionOutcome) => void) {
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const done = useRef(onDone);
  done.current = onDone;
  useEffect(() => () => clearTimeout(timer.current), []);
  const show = useCallback(
    (next: ActionOutcome) => {
      clearTimeout(timer.current);
      setOutcome(next);
      timer.current = setTimeout(() => {
        setOutcome(null);
        done.current?.(next);
      }, ms);
    },
    [ms],
  );
  return { outcome, show };
}
