import { useCallback, useEffect, useRef, useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useConsoleDataProvider } from '../providers/dataProvider';
import type { PushMessage } from '@contract/messaging';
import { applyEdit, changedRows, markSaved, mergeFetched, type MessageEdit, type MessageRow } from './messageEdits';

export const messagesQueryKey = (typeId: number) => ['messaging', typeId] as const;

export interface SaveOutcome {
  saved: MessageRow[];
  failed: { row: MessageRow; error: unknown }[];
}

/**
 * The templates of one type as the page edits them: the fetched list plus local edits, which a
 * refetch never overwrites. `save` sends one update per changed row and clears only those that saved.
 */
export function useMessageTemplates(typeId: number) {
  const dataProvider = useConsoleDataProvider();
  const query = useQuery({
    queryKey: messagesQueryKey(typeId),
    queryFn: () => dataProvider.getPushMessages(typeId),
  });
  const [rows, setRows] = useState<MessageRow[]>([]);
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  const [failures, setFailures] = useState<Record<number, unknown>>({});

  useEffect(() => {
    if (query.data) setRows((local) => mergeFetched(local, query.data.messages));
  }, [query.data]);

  const edit = useCallback((id: number, change: MessageEdit) => setRows((current) => applyEdit(current, id, change)), []);

  const saveMutation = useMutation({
    mutationFn: async (): Promise<SaveOutcome> => {
      const toSave = changedRows(rowsRef.current);
      const results = await Promise.allSettled(toSave.map((row) => dataProvider.updatePushMessage(row)));
      const stored: { sent: MessageRow; stored: PushMessage }[] = [];
      const failed: SaveOutcome['failed'] = [];
      results.forEach((result, index) => {
        const sent = toSave[index]!;
        if (result.status === 'fulfilled') stored.push({ sent, stored: result.value });
        else failed.push({ row: sent, error: result.reason });
      });
      setRows((current) => markSaved(current, stored));
      setFailures((current) => {
        const next = { ...current };
        for (const { sent } of stored) delete next[sent.id];
        for (const { row, error } of failed) next[row.id] = error;
        return next;
      });
      return { saved: stored.map((entry) => entry.sent), failed };
    },
  });

  return {
    query,
    rows,
    failures,
    edit,
    hasChanges: changedRows(rows).length > 0,
    save: saveMutation.mutateAsync,
    isSaving: saveMutation.isPending,
  };
}
