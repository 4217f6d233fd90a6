import { startTransition, useEffect, useState, type ReactNode } from 'react';

/**
 * Renders its children one commit after the page around it, as a transition, so a cold load's first
 * render (the whole screen) holds the page without the sidebar's entries. The frame they
 * sit in is drawn with the page, so nothing moves when they arrive, and later navigations keep them
 * (the layout stays mounted).
 */
export const AfterThePage = ({ children }: { children: ReactNode }) => {
  const [shown, setShown] = useState(false);
  useEffect(() => startTransition(() => setShown(true)), []);
  return shown ? children : null;
};
