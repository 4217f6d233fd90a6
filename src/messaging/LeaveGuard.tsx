import { useEffect } from 'react';
import { useBlocker, useCanBlock, useTranslate } from 'react-admin';

/** Asks before leaving the page (in-app navigation or closing the tab) while `when` is true. */
export const LeaveGuard = ({ when }: { when: boolean }) => {
  const canBlock = useCanBlock();
  useEffect(() => {
    if (!when) return;
    const beforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', beforeUnload);
    return () => window.removeEventListener('beforeunload', beforeUnload);
  }, [when]);
  // Blocking in-app navigation needs a data router; without one only the tab-close prompt works.
  return canBlock ? <NavigationGuard when={when} /> : null;
};

const NavigationGuard = ({ when }: { when: boolean }) => {
  const translate = useTranslate();
  const blocker = useBlocker(({ currentLocation, nextLocation }) => when && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (window.confirm(translate('messaging.leave_unsaved'))) blocker.proceed?.();
    else blocker.reset?.();
  }, [blocker, translate]);
  return null;
};
