import type { BroadcastOutcome } from '@contract/outcomes';
export { OUTCOME_GROUPS, type OutcomeGroup } from '@contract/outcomeRules';

/** What every result has: a message's figures against its holdout. */
export type OutcomeFigures = Pick<BroadcastOutcome, 'clients' | 'sent' | 'delivered' | 'opened' | 'converted' | 'conversion_rate' | 'holdout' | 'lift'>;

/** A sentence of the messages file and its values. */
export interface Sentence {
  key: string;
  options: Record<string, unknown>;
}

/** '16.5 %' (one decimal), or '–' without clients. */
export const percent = (rate: number | null) => (rate === null ? '–' : `${(rate * 100).toLocaleString('en', { maximumFractionDigits: 1 })} %`);

/**
 * The lift in plain words: more or fewer clients than without the message, with its interval;
 * "not enough data yet" while the interval includes zero; nothing to say without a holdout.
 */
export function liftSentence(lift: OutcomeFigures['lift']): Sentence {
  if (!lift) return { key: 'outcomes.lift.no_holdout', options: {} };
  const range = { low: lift.low.toLocaleString('en'), high: lift.high.toLocaleString('en') };
  if (!lift.significant) return { key: 'outcomes.lift.not_enough', options: range };
  if (lift.clients >= 0) return { key: 'outcomes.lift.more', options: { count: lift.clients.toLocaleString('en'), smart_count: lift.clients, ...range } };
  return {
    key: 'outcomes.lift.fewer',
    options: {
      count: (-lift.clients).toLocaleString('en'),
      smart_count: -lift.clients,
      low: (-lift.high).toLocaleString('en'),
      high: (-lift.low).toLocaleString('en'),
    },
  };
}

/** The client list of one group: `broadcast:<id>:<group>` or `automated:<type>:<week>:<group>`. */
export const outcomeClientsPath = (outcome: string) => `/clients/all?filter=${encodeURIComponent(JSON.stringify({ outcome }))}`;
