import { useState } from 'react';
import { Box, Button, List, ListItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import type { Note } from '@contract/notes';
import { NOTE_MAX } from '@contract/notesRules';
import { useConsoleDataProvider } from '../../providers/dataProvider';
import type { ClientRecord } from '../clientsData';
import { dateTime } from '../../common/format';
import { EmptyText, SectionError, SectionLoading } from '../../common/SectionState';
import { TagsEditor } from './TagsEditor';

const notesKey = (clientId: number) => ['clients', clientId, 'notes'] as const;

/** One note: its author and time; the author may edit or delete it. */
const NoteItem = ({ note, onChanged }: { note: Note; onChanged(): void }) => {
  const translate = useTranslate();
  const t = (key: string, options?: object) => translate(`client.notes.${key}`, options);
  const dataProvider = useConsoleDataProvider();
  const notify = useNotify();
  const [draft, setDraft] = useState<string | null>(null);
  const failed = (error: Error) => notify(t('failed', { message: error.message }), { type: 'error' });
  const update = useMutation({
    mutationFn: (body: string) => dataProvider.updateClientNote(note.id, body),
    onSuccess: () => {
      setDraft(null);
      onChanged();
    },
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: () => dataProvider.deleteClientNote(note.id),
    onSuccess: () => {
      notify(t('deleted'), { type: 'info' });
      onChanged();
    },
    onError: failed,
  });
  const edited = note.updated_at !== note.created_at;
  return (
    <ListItem divider sx={{ display: 'block', px: 0 }}>
      <Typography variant="body2" color="text.secondary">
        {note.author_email} · <time dateTime={note.created_at}>{dateTime(note.created_at)}</time>
        {edited && ` · ${t('edited', { date: dateTime(note.updated_at) })}`}
      </Typography>
      {draft === null ? (
        <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{note.body}</Typography>
      ) : (
        <TextField
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          label={t('edit_label')}
          multiline
          fullWidth
          slotProps={{ htmlInput: { maxLength: NOTE_MAX } }}
          sx={{ my: 1 }}
        />
      )}
      {note.mine && (
        <Stack direction="row" spacing={1} sx={{ mt: 0.5 }}>
          {draft === null ? (
            <>
              <Button size="small" onClick={() => setDraft(note.body)} aria-label={t('edit_aria', { date: dateTime(note.created_at) })}>
                {t('edit')}
              </Button>
              <Button
                size="small"
                color="error"
                onClick={() => remove.mutate()}
                loading={remove.isPending}
                aria-label={t('delete_aria', { date: dateTime(note.created_at) })}
              >
                {t('delete')}
              </Button>
            </>
          ) : (
            <>
              <Button size="small" variant="contained" onClick={() => draft.trim() && update.mutate(draft.trim())} loading={update.isPending}>
                {t('save')}
              </Button>
              <Button size="small" onClick={() => setDraft(null)} disabled={update.isPending}>
                {t('cancel')}
              </Button>
            </>
          )}
        </Stack>
      )}
    </ListItem>
  );
};

/** The client's tags and the staff's notes about them, newest first. */
export const NotesSection = ({ client, canWrite }: { client: ClientRecord; canWrite: boolean }) => {
  const translate = useTranslate();
  const t = (key: string, options?: object) => translate(`client.notes.${key}`, options);
  const dataProvider = useConsoleDataProvider();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const notes = useQuery({ queryKey: notesKey(client._id), queryFn: () => dataProvider.getClientNotes(client._id), retry: false });
  const [text, setText] = useState('');
  // Notes are on the timeline too: refresh everything of this client.
  const changed = () => void queryClient.invalidateQueries({ queryKey: ['clients', client._id] });
  const add = useMutation({
    mutationFn: (body: string) => dataProvider.addClientNote(client._id, body),
    onSuccess: () => {
      setText('');
      changed();
    },
    onError: (error: Error) => notify(t('failed', { message: error.message }), { type: 'error' }),
  });
  return (
    <Paper component="section" aria-labelledby="notes-title" variant="outlined" sx={{ mb: 2, p: 2 }}>
      <Typography id="notes-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('title')}
      </Typography>
      <TagsEditor clientId={client._id} canEdit={canWrite} />
      {canWrite && (
        <Box
          component="form"
          onSubmit={(event) => {
            event.preventDefault();
            if (text.trim()) add.mutate(text.trim());
          }}
          sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}
        >
          <TextField
            label={t('add_label')}
            value={text}
            onChange={(event) => setText(event.target.value)}
            multiline
            minRows={1}
            slotProps={{ htmlInput: { maxLength: NOTE_MAX } }}
            sx={{ flex: '1 1 16rem' }}
          />
          <Button type="submit" variant="contained" loading={add.isPending} disabled={!text.trim()}>
            {t('add')}
          </Button>
        </Box>
      )}
      {notes.isPending ? (
        <SectionLoading />
      ) : notes.isError ? (
        <SectionError title={t('title')} error={notes.error} onRetry={() => void notes.refetch()} />
      ) : notes.data.length === 0 ? (
        <EmptyText>{t('empty')}</EmptyText>
      ) : (
        <List dense aria-label={t('list')}>
          {notes.data.map((note) => (
            <NoteItem key={note.id} note={note} onChanged={changed} />
          ))}
        </List>
      )}
    </Paper>
  );
};
