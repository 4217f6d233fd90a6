import type { FastifyBaseLogger } from 'fastify';
import type { StatsError, StatsFigure, StatsResponse, StatsTrendsResponse } from '@contract/stats';
import type { Database } from '../db/client';
import { mostPlayedCategory, paidSubscribersAt, playsPerDay, totalPlays } from './queries';
import { averagePerDay, fillPlaysWindow, playsWindow, weeklyMoments } from './window';

/** A figure that has no value for a reason the staff should read (not a failure). */
class NoValue extends Error {}

const FAILED: Record<StatsFigure, string> = {
  subscribers: 'The number of VOD subscribers could not be computed right now.',
  daily_plays: 'The average daily video plays could not be computed right now.',
  most_popular: 'The most popular category could not be computed right now.',
};

/**
 * The three dashboard figures at `now`. Each is computed on its own: one that fails becomes an entry in
 * `errors` (and null in `result`) instead of failing the whole call.
 */
export async function computeStats(database: Database, now: Date, log: FastifyBaseLogger): Promise<StatsResponse> {
  const window = playsWindow(now);
  const errors: StatsError[] = [];
  const figure = async <T>(name: StatsFigure, compute: () => Promise<T>): Promise<T | null> => {
    try {
      return await compute();
    } catch (error) {
      if (error instanceof NoValue) errors.push({ figure: name, message: error.message });
      else {
        log.error({ err: error, figure: name }, 'stats figure failed');
        errors.push({ figure: name, message: FAILED[name] });
      }
      return null;
    }
  };

  const subscribers = await figure('subscribers', async () => (await paidSubscribersAt(database, [now]))[0]!);
  const daily_plays = await figure('daily_plays', async () => averagePerDay(await totalPlays(database, window.from, window.to)));
  const most_popular = await figure('most_popular', async () => {
    const name = await mostPlayedCategory(database, window.from, window.to);
    if (name === null) throw new NoValue('No video was played in the last 30 full days, so no category is the most popular.');
    return name;
  });
  return { errors, result: { subscribers, daily_plays, most_popular } };
}

export async function computeTrends(database: Database, now: Date): Promise<StatsTrendsResponse> {
  const window = playsWindow(now);
  const moments = weeklyMoments(now);
  const plays = await playsPerDay(database, window.from, window.to);
  const subscribers = await paidSubscribersAt(database, moments);
  return {
    daily_plays: fillPlaysWindow(window.days, plays),
    paid_subscribers: moments.map((at, i) => ({ at: at.toISOString(), subscribers: subscribers[i]! })),
  };
}
