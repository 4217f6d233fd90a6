import { useState } from 'react';
import { Autocomplete, Box, Button, Chip, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import { TAG_MAX, TAGS_PER_CLIENT_MAX, normalizeTag } from '@contract/notesRules';
import { useConsoleDataProvider } from '../../providers/dataProvider';

/** TanStack Query key of the client's tags (the header shows them too). */
export const tagsKey = (clientId: number) => ['clients', clientId, 'tags'] as const;

/** The client's tags; with `clients.notes`, Edit turns them into a field that autocompletes from the tags in use. */
export const TagsEditor = ({ clientId, canEdit }: { clientId: number; canEdit: boolean }) => {
  const translate = useTranslate();
  const t = (key: string, options?: object) => translate(`client.notes.${key}`, options);
  const dataProvider = useConsoleDataProvider();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const tags = useQuery({ queryKey: tagsKey(clientId), queryFn: () => dataProvider.getClientTags(clientId), retry: false });
  const [editing, setEditing] = useState<string[] | null>(null);
  const [typed, setTyped] = useState('');
  const suggestions = useQuery({
    queryKey: ['tag-suggestions', normalizeTag(typed)],
    queryFn: () => dataProvider.getTagSuggestions(normalizeTag(typed)),
    enabled: editing !== null,
    staleTime: 30_000,
  });
  const save = useMutation({
    mutationFn: (next: string[]) => dataProvider.setClientTags(clientId, next),
    onSuccess: (stored) => {
      queryClient.setQueryData(tagsKey(clientId), stored);
      void queryClient.invalidateQueries({ queryKey: ['clients', clientId] });
      void queryClient.invalidateQueries({ queryKey: ['tag-suggestions'] });
      setEditing(null);
      notify(t('tags_saved'), { type: 'success' });
    },
    onError: (error: Error) => notify(t('tags_failed', { message: error.message }), { type: 'error' }),
  });

  if (editing !== null) {
    return (
      <Stack spacing={1} sx={{ mb: 2 }}>
        <Autocomplete
          multiple
          freeSolo
          options={(suggestions.data ?? []).map((suggestion) => suggestion.tag)}
          value={editing}
          onChange={(_event, value) => setEditing([...new Set(value.map((tag) => normalizeTag(String(tag))).filter(Boolean))].slice(0, TAGS_PER_CLIENT_MAX))}
          inputValue={typed}
          onInputChange={(_event, value) => setTyped(value.slice(0, TAG_MAX))}
          filterOptions={(options) => options.filter((option) => !editing.includes(option))}
          renderInput={(params) => <TextField {...params} label={t('tags')} helperText={t('tags_help')} />}
          disabled={save.isPending}
        />
        <Stack direction="row" spacing={1}>
          <Button
            variant="contained"
            size="small"
            onClick={() => save.mutate(typed.trim() ? [...editing, normalizeTag(typed)] : editing)}
            loading={save.isPending}
          >
            {t('save_tags')}
          </Button>
          <Button size="small" onClick={() => setEditing(null)} disabled={save.isPending}>
            {t('cancel')}
          </Button>
        </Stack>
      </Stack>
    );
  }
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 2 }} aria-label={t('tags')} role="group">
      <Typography fontWeight="bold" component="span">
        {t('tags')}:
      </Typography>
      {(tags.data ?? []).map((tag) => (
        <Chip key={tag} label={tag} size="small" />
      ))}
      {tags.isSuccess && tags.data.length === 0 && (
        <Typography color="text.secondary" component="span">
          {t('no_tags')}
        </Typography>
      )}
      {canEdit && tags.isSuccess && (
        <Button size="small" onClick={() => setEditing(tags.data)}>
          {t('edit_tags')}
        </Button>
      )}
    </Box>
  );
};
