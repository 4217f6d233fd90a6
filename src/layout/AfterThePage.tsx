import { startTransition, useEffect, useState, type ReactNode } from 'react';

/**
 * Renders its children one commit after the page around it, as a transition. On a cold load the
 * sidebar's entries took ~290 ms of rendering on a 2-core machine before the client list could
 * show a row (issue 19); the frame they sit in is drawn with the page, so nothing moves when they
 * arrive, and later navigations keep them (the layout stays mounted).
 */
export const AfterThePage = ({ children }: { children: ReactNode }) => {
  const [shown, setShown] = useState(false);
  useEffect(() => startTransition(() => setShown(true)), []);
  return shown ? children : null;
};
