import { createElement } from 'react';
import { useNotify, useUpdate } from 'react-admin';
import type { AdminVideo, AdminVideoUpdate } from '@contract/videos';
import { UndoableActions } from '../layout/Notification';

export const errorText = (error: unknown): string => (error as { message?: string } | null)?.message || 'no answer from the server';

/**
 * Saves one field of a row at once, undoable: the control changes immediately, react-admin's
 * notification offers Undo, and the PUT goes out when it closes. If the server refuses,
 * react-admin puts the old value back and the error toast says so.
 */
export function useSaveVideoField() {
  const [update] = useUpdate<AdminVideo>();
  const notify = useNotify();
  return (record: AdminVideo, data: AdminVideoUpdate, done: { message: string; args?: Record<string, unknown> }) =>
    update(
      'videos',
      { id: record.id, data, previousData: record },
      {
        mutationMode: 'undoable',
        onSuccess: () => notify(done.message, { type: 'info', undoable: true, messageArgs: done.args, action: createElement(UndoableActions) }),
        onError: (error) => notify('videos.notify.save_failed', { type: 'error', messageArgs: { title: record.title, error: errorText(error) } }),
      },
    );
}
