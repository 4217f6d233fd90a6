import { Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { AuditEntry } from '../../contract/audit';
import { changeLines, changeText } from './auditFormat';

/** Before → after per changed field; a creation shows only the new values, a removal the old ones. */
export const AuditChanges = ({ entry }: { entry: Pick<AuditEntry, 'before' | 'after'> }) => {
  const translate = useTranslate();
  const lines = changeLines(entry);
  if (lines.length === 0) return null;
  const note = entry.before === null ? translate('audit.created') : entry.after === null ? translate('audit.removed') : null;
  return (
    <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none', maxWidth: 520 }}>
      {note && (
        <Typography component="li" variant="caption" color="text.secondary">
          {note}
        </Typography>
      )}
      {lines.map((line) => (
        <Typography component="li" variant="body2" key={line.field} title={changeText(line)} sx={{ overflowWrap: 'anywhere' }}>
          <Box component="span" sx={{ fontWeight: 600 }}>
            {line.field}
          </Box>
          {': '}
          {line.before !== undefined && (
            <Box component="span" sx={{ color: 'error.main', textDecoration: line.after !== undefined ? 'line-through' : 'none' }}>
              {line.before}
            </Box>
          )}
          {line.before !== undefined && line.after !== undefined && ' → '}
          {line.after !== undefined && (
            <Box component="span" sx={{ color: 'success.main' }}>
              {line.after}
            </Box>
          )}
        </Typography>
      ))}
    </Box>
  );
};
