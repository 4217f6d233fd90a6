/** What the page measured for one typed query, in its own clock (performance.now(), ms). */
export interface KeystrokeTiming {
  /** The first and the last key's keydown, as event.timeStamp: when the browser took the key in. */
  firstKeyAt: number;
  keyAt: number;
  /** The hit list first showed the typed query's answer (the DOM changed). */
  shownAt: number;
  /** Just after the frame showing it was painted. */
  paintedAt: number;
  hits: number;
  /** The widget showed its error line instead (a failed or timed-out search). */
  failed: boolean;
  /** The search requests sent once typing began: when each left and when its answer was in. */
  requests: { sentAt: number; answeredAt: number }[];
}

type ProbeWindow = Window & { keystrokeProbe?: Promise<KeystrokeTiming> };

/**
 * Runs in the page (page.evaluate), so the times carry none of playwright's round trips. Arm it
 * while the list shows the empty query's hits, which have nothing highlighted; then type. The
 * typed query's answer is on screen once a hit has a highlighted match, or once there is no hit
 * (or the widget says the search failed).
 * No named inner functions: tsx would wrap them in a helper the page does not have.
 */
export function armKeystrokeProbe(listId: string): void {
  const keys = new AbortController();
  let firstKeyAt = NaN;
  let keyAt = NaN;
  document.addEventListener(
    'keydown',
    (event) => {
      if (Number.isNaN(firstKeyAt)) firstKeyAt = event.timeStamp;
      keyAt = event.timeStamp;
    },
    { capture: true, signal: keys.signal },
  );
  // Only this query's requests, and never a full buffer (Chromium keeps 250 entries).
  performance.clearResourceTimings();
  (window as ProbeWindow).keystrokeProbe = new Promise<KeystrokeTiming>((resolve, reject) => {
    const observer = new MutationObserver(() => {
      const list = document.getElementById(listId);
      if (Number.isNaN(keyAt) || !list) return;
      const hits = list.querySelectorAll('[role="option"]').length;
      const failed = Boolean(list.parentElement?.querySelector('[role="alert"]'));
      if (hits > 0 && !failed && !list.querySelector('mark')) return;
      const shownAt = performance.now();
      observer.disconnect();
      keys.abort();
      clearTimeout(timeout);
      // A frame callback runs just before that frame is painted; a message posted from it is
      // handled just after.
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          const paintedAt = performance.now();
          const requests = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
            .filter((entry) => entry.name.includes('/1/indexes/') && entry.startTime >= firstKeyAt)
            .map((entry) => ({ sentAt: entry.startTime, answeredAt: entry.responseEnd }));
          resolve({ firstKeyAt, keyAt, shownAt, paintedAt, hits, failed, requests });
        };
        channel.port2.postMessage(null);
      });
    });
    const timeout = setTimeout(() => {
      observer.disconnect();
      keys.abort();
      const list = document.getElementById(listId);
      const box = document.querySelector(`input[aria-controls="${listId}"]`) as HTMLInputElement | null;
      const shown = list ? `${list.querySelectorAll('[role="option"]').length} hits, none highlighted` : 'no list';
      reject(new Error(`the hit list did not show the typed query within 15 s (box: '${box?.value}', ${shown})`));
    }, 15_000);
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  });
}

/** The armed probe's outcome (page.evaluate waits for it). */
export const keystrokeProbeResult = () => (window as ProbeWindow).keystrokeProbe!;
