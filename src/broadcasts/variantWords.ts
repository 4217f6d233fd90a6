import type { BroadcastOutcome } from '@contract/outcomes';
import { variantLetter, type WinnerMetric } from '@contract/outcomeRules';
import { dateTime } from '../common/format';
import { percent, type Sentence } from '../common/outcomeWords';

/**
 * Why a version went to the rest, in plain words, from the figures it was picked on: "Version B
 * went to the rest: 12 % vs 7.5 % (conversion rate), better beyond the interval", or that none was
 * better and the first went; before the pick, when it will be (by `metricBefore`). Null for a broadcast with one text.
 */
export function winnerSentence(
  outcome: Pick<BroadcastOutcome, 'variants' | 'winner' | 'winner_due_at' | 'waiting'>,
  metricBefore: WinnerMetric,
  metricWords: (metric: WinnerMetric) => string,
): Sentence | null {
  if (outcome.variants.length === 0) return null;
  const { winner } = outcome;
  if (!winner) {
    if (!outcome.winner_due_at || outcome.waiting === 0) return null;
    return {
      key: 'outcomes.versions.waiting',
      options: {
        count: outcome.waiting.toLocaleString('en'),
        smart_count: outcome.waiting,
        metric: metricWords(metricBefore),
        when: dateTime(outcome.winner_due_at),
      },
    };
  }
  const metric = metricWords(winner.metric);
  const rates = winner.versions.map((v) => percent(v.rate));
  if (winner.reason === 'better')
    return {
      key: 'outcomes.versions.better',
      options: { letter: variantLetter(winner.index), rate: rates[winner.index], others: rates.filter((_, i) => i !== winner.index).join(' and '), metric },
    };
  if (winner.reason === 'no_clear_winner')
    return { key: 'outcomes.versions.no_clear_winner', options: { rates: rates.map((rate, i) => `${variantLetter(i)} ${rate}`).join(', '), metric } };
  return { key: 'outcomes.versions.no_data', options: {} };
}
