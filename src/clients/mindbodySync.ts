import type { MindbodySyncStatus } from '@contract/mindbody';
import type { MessageKey } from '../providers/i18nProvider';

export type SyncTone = 'ok' | 'running' | 'failed' | 'never';

export interface SyncLine {
  key: MessageKey;
  /** When Mindbody was last synced successfully (ISO), for the %{time} of the message. */
  syncedAt: string | null;
  tone: SyncTone;
  /** Shown on hover: why the last attempt failed. */
  detail: string | null;
}

/** Which sentence the client lists show about the Mindbody import. */
export function describeMindbodySync(status: MindbodySyncStatus): SyncLine {
  const syncedAt = status.last_synced_at;
  if (status.running) return { key: syncedAt ? 'mindbody_sync.running' : 'mindbody_sync.running_first', syncedAt, tone: 'running', detail: null };
  if (status.last_outcome === 'failed') {
    return { key: syncedAt ? 'mindbody_sync.failed' : 'mindbody_sync.failed_first', syncedAt, tone: 'failed', detail: status.last_error };
  }
  if (syncedAt) return { key: 'mindbody_sync.synced', syncedAt, tone: 'ok', detail: null };
  return { key: 'mindbody_sync.never', syncedAt: null, tone: 'never', detail: null };
}

export interface BudgetLine {
  /** "454 of 1,000 MindBody calls used today" */
  calls: { key: MessageKey; calls: string; limit: string };
  /** Set while some clients' visits wait for a later day's calls. */
  deferred: { key: MessageKey; count: string } | null;
}

/** How much of the day's Mindbody call budget is used, and what waits for another day. */
export function describeMindbodyBudget(status: MindbodySyncStatus): BudgetLine {
  const number = (value: number) => value.toLocaleString('en-US');
  return {
    calls: { key: 'mindbody_sync.calls', calls: number(status.calls_today), limit: number(status.daily_call_limit) },
    deferred: status.visits_deferred > 0 ? { key: 'mindbody_sync.deferred', count: number(status.visits_deferred) } : null,
  };
}
