import type { AdminVideo, AdminVideoUpdate } from '@contract/videos';
import type { Database } from '../db/client';
import { changedFields, recordAudit, type Actor } from '../audit/record';
import { deleteAdminVideo, getAdminVideo, updateAdminVideo } from './adminVideos';

/** Staff's edit of a video and its audit entry, in one transaction; a save that changed nothing is not logged. */
export function saveVideo(database: Database, id: number, input: AdminVideoUpdate, actor: Actor): Promise<AdminVideo> {
  return database.transaction(async (tx) => {
    const before = await getAdminVideo(tx, id);
    const after = await updateAdminVideo(tx, id, input, actor.at);
    const changes = changedFields(before, after);
    if (Object.keys(changes.after ?? {}).length > 0) {
      await recordAudit(tx, { ...actor, action: 'video.update', target_type: 'video', target_id: after.id, ...changes });
    }
    return after;
  });
}

/** Soft-deletes a video (restorable) with its audit entry; deleting a deleted video changes nothing. */
export function removeVideo(database: Database, id: number, actor: Actor): Promise<AdminVideo> {
  return database.transaction(async (tx) => {
    const before = await getAdminVideo(tx, id);
    const after = await deleteAdminVideo(tx, id, actor.at);
    const changes = changedFields(before, after);
    if (Object.keys(changes.after ?? {}).length > 0) {
      await recordAudit(tx, { ...actor, action: 'video.delete', target_type: 'video', target_id: after.id, ...changes });
    }
    return after;
  });
}
