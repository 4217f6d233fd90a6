import Typography from '@mui/material/Typography';
import { useTranslate } from 'react-admin';
import { fillPlaceholders, hasPlaceholders, unknownPlaceholders } from '@contract/placeholders';
import { SAMPLE_CLIENT } from './sampleClient';

/** Shown next to a template's text: how it reads for a sample client, and any placeholder nothing fills. */
export const MessagePreview = ({ text }: { text: string }) => {
  const translate = useTranslate();
  const unknown = unknownPlaceholders(text);
  if (!hasPlaceholders(text) && unknown.length === 0) return null;
  const name = `${SAMPLE_CLIENT.first_name} ${SAMPLE_CLIENT.last_name}`;
  return (
    <>
      {hasPlaceholders(text) && (
        <Typography variant="caption" component="p" color="text.secondary" sx={{ mt: 0.5 }} data-testid="message-preview">
          {translate('messaging.placeholders.preview', { name })} <q>{fillPlaceholders(text, SAMPLE_CLIENT)}</q>
        </Typography>
      )}
      {unknown.length > 0 && (
        <Typography variant="caption" component="p" color="warning.main">
          {translate('messaging.placeholders.unknown', { placeholders: unknown.join(', ') })}
        </Typography>
      )}
    </>
  );
};
