import type { MindbodySyncStatus } from '../../contract/mindbody';
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
