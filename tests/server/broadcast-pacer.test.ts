import { describe, expect, it } from 'vitest';
import { createPacer, createThrottle } from '../../server/src/broadcasts/pacer';
import { recipientCounts } from '../../server/src/broadcasts/counts';
import { groupWriter } from '../../server/src/broadcasts/groupWriter';

/** A clock the pacer sleeps on: sleeping moves it, so the pace is read from it without waiting. */
function fakeTime() {
  let at = 0;
  return { now: () => at, sleep: async (ms: number) => void (at += ms), advance: (ms: number) => void (at += ms) };
}

describe('the FCM pacer', () => {
  it('at full pace (the sandbox) spaces nothing beyond the quota and keeps the in-flight limit', async () => {
    const time = fakeTime();
    const pacer = createPacer({ perMinute: 60_000, maxInFlight: 4, rampUp: false, now: time.now, sleep: time.sleep });
    const starts: number[] = [];
    for (let i = 0; i < 100; i++) {
      const slot = await pacer.take();
      starts.push(time.now());
      slot.release({ deferred: false });
    }
    // 1,000 a second: 100 sends take about 100 ms (a 20 ms burst allowed up front).
    expect(starts.at(-1)).toBeGreaterThanOrEqual(75);
    expect(starts.at(-1)).toBeLessThanOrEqual(100);
    const held = await Promise.all([pacer.take(), pacer.take(), pacer.take(), pacer.take()]);
    let fifth = false;
    const waiting = pacer.take().then((slot) => {
      fifth = true;
      return slot;
    });
    await Promise.resolve();
    expect(fifth).toBe(false);
    held[0]!.release({ deferred: false });
    (await waiting).release({ deferred: false });
    expect(fifth).toBe(true);
  });

  it('ramps up from 50 a second, and on a 429 slows to under what FCM took, waiting out Retry-After', async () => {
    const time = fakeTime();
    const pacer = createPacer({ perMinute: 600_000, maxInFlight: 100, now: time.now, sleep: time.sleep });
    expect(pacer.state.rate).toBe(3000);
    // FCM takes 40 in the first second, then refuses one with Retry-After: 2 s.
    for (let i = 0; i < 40; i++) (await pacer.take()).release({ deferred: false });
    const refused = await pacer.take();
    const at = time.now();
    refused.release({ deferred: true, retryAfterMs: 2000 });
    expect(pacer.state.slowDowns).toBe(1);
    expect(pacer.state.rate).toBeLessThanOrEqual(40 * 60 * 0.9 + 1);
    const next = await pacer.take();
    expect(time.now() - at).toBeGreaterThanOrEqual(2000);
    next.release({ deferred: false });
  });

  it("spaces one broadcast's sends evenly by its own max_per_minute", async () => {
    const time = fakeTime();
    const throttle = createThrottle(600, time.now, time.sleep);
    for (let i = 0; i < 11; i++) await throttle.wait();
    expect(time.now()).toBe(1000);
    await expect(createThrottle(null).wait()).resolves.toBeUndefined();
  });
});

describe("a broadcast's counts", () => {
  const rows = [
    { broadcast_id: 1, status: 'sent', reason: null, n: 5 },
    { broadcast_id: 1, status: 'sending', reason: null, n: 2 },
    { broadcast_id: 1, status: 'pending', reason: null, n: 3 },
    { broadcast_id: 1, status: 'retrying', reason: 'QUOTA_EXCEEDED', n: 4 },
    { broadcast_id: 1, status: 'failed', reason: 'gave_up', n: 1 },
    { broadcast_id: 1, status: 'skipped', reason: 'opted_out', n: 2 },
  ];

  it('add up to the recipients while sending: in flight is pending, deferred is retrying', () => {
    const counts = recipientCounts(rows, 'sending', 17);
    expect(counts).toEqual({
      sent: 5,
      failed: 1,
      skipped: 2,
      pending: 5,
      retrying: 4,
      waiting: 0,
      not_sent: 0,
      skipped_by_reason: { opted_out: 2 },
      failed_by_reason: { gave_up: 1 },
    });
    expect(counts.sent + counts.failed + counts.skipped + counts.pending + counts.retrying + counts.not_sent).toBe(17);
  });

  it('of a cancelled broadcast show what it will not send as not sent, and a cancelled draft all of it', () => {
    expect(recipientCounts(rows, 'cancelled', 17)).toMatchObject({ pending: 0, retrying: 0, not_sent: 9 });
    expect(recipientCounts([], 'cancelled', 40)).toMatchObject({ sent: 0, pending: 0, not_sent: 40 });
  });

  it('show the rest of a broadcast with versions as waiting for the winner, and as not sent once cancelled', () => {
    const withRest = [...rows, { broadcast_id: 1, status: 'waiting', reason: null, n: 30 }];
    const counts = recipientCounts(withRest, 'sending', 47);
    expect(counts).toMatchObject({ sent: 5, pending: 5, retrying: 4, waiting: 30, not_sent: 0 });
    expect(counts.sent + counts.failed + counts.skipped + counts.pending + counts.retrying + counts.waiting + counts.not_sent).toBe(47);
    // Cancelled: pending 5, retrying 4 and the 30 waiting are not sent.
    expect(recipientCounts(withRest, 'cancelled', 47)).toMatchObject({ pending: 0, retrying: 0, waiting: 0, not_sent: 39 });
  });
});

describe('the group writer', () => {
  it('writes what comes in one turn at once, and what comes while a write runs in the next one, all at once', async () => {
    const groups: number[][] = [];
    let release!: () => void;
    const first = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const writing = new Promise<void>((resolve) => (started = resolve));
    const writer = groupWriter<number, number>(async (group) => {
      groups.push(group);
      if (groups.length === 1) {
        started();
        await first;
      }
      return new Map(group.map((n) => [n, n * 10]));
    });
    const answers = [writer.add(1), writer.add(2)];
    await writing;
    answers.push(writer.add(3), writer.add(4));
    release();
    expect(await Promise.all(answers)).toEqual([10, 20, 30, 40]);
    expect(groups).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });
});
