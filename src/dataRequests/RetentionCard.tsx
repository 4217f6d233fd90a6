import { useEffect, useState, type FormEvent } from 'react';
import { Box, Button, InputAdornment, Paper, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import { RETENTION_KINDS, RETENTION_MAX_DAYS, RETENTION_MIN_DAYS, type RetentionSettings } from '@contract/clientData';
import { useConsoleDataProvider } from '../providers/dataProvider';
import { SectionError, SectionLoading } from '../common/SectionState';

/** How long each kind of data is kept; the daily job applies it. */
export const RetentionCard = () => {
  const translate = useTranslate();
  const t = (key: string, options?: Record<string, unknown>) => translate(`data_rights.retention.${key}`, options);
  const notify = useNotify();
  const dataProvider = useConsoleDataProvider();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: ['retention'], queryFn: () => dataProvider.getRetention() });
  const [draft, setDraft] = useState<Record<string, string>>({});
  useEffect(() => {
    if (settings.data) setDraft(Object.fromEntries(Object.entries(settings.data).map(([kind, days]) => [kind, String(days)])));
  }, [settings.data]);
  const save = useMutation({
    mutationFn: () => dataProvider.saveRetention(Object.fromEntries(RETENTION_KINDS.map((kind) => [kind, Number(draft[kind])])) as RetentionSettings),
    onSuccess: (saved) => {
      queryClient.setQueryData(['retention'], saved);
      notify('data_rights.retention.saved', { type: 'success' });
    },
    onError: (error: Error) => notify('data_rights.retention.failed', { type: 'error', messageArgs: { reason: error.message } }),
  });
  const valid = (value: string | undefined) => /^\d+$/.test(value ?? '') && Number(value) >= RETENTION_MIN_DAYS && Number(value) <= RETENTION_MAX_DAYS;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <Paper component="section" variant="outlined" aria-labelledby="retention-title" sx={{ p: 2, mt: 3 }}>
      <Typography id="retention-title" variant="h6" component="h2">
        {t('title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('intro')}
      </Typography>
      {settings.isPending ? (
        <SectionLoading />
      ) : settings.error ? (
        <SectionError title={t('title')} error={settings.error} onRetry={() => void settings.refetch()} />
      ) : (
        <Box component="form" onSubmit={submit} noValidate>
          <Stack direction="row" useFlexGap flexWrap="wrap" spacing={2}>
            {RETENTION_KINDS.map((kind) => (
              <TextField
                key={kind}
                label={t(`kinds.${kind}`)}
                value={draft[kind] ?? ''}
                onChange={(event) => setDraft((current) => ({ ...current, [kind]: event.target.value }))}
                error={!valid(draft[kind])}
                sx={{ width: { xs: '100%', sm: 240 } }}
                slotProps={{ htmlInput: { inputMode: 'numeric' }, input: { endAdornment: <InputAdornment position="end">{t('days')}</InputAdornment> } }}
              />
            ))}
          </Stack>
          <Button type="submit" variant="contained" sx={{ mt: 2 }} disabled={save.isPending || !RETENTION_KINDS.every((kind) => valid(draft[kind]))}>
            {t('save')}
          </Button>
        </Box>
      )}
    </Paper>
  );
};
