import { useEffect, useRef, useState } from 'react';

/**
 * The rendered width of an element, so charts draw in real pixels (text stays readable on a phone)
 * instead of scaling a fixed drawing. Falls back to `initial` where ResizeObserver is missing.
 */
export function useMeasuredWidth<T extends HTMLElement>(initial = 600) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const measured = Math.floor(entry?.contentRect.width ?? 0);
      if (measured > 0) setWidth(measured);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}
