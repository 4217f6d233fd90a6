import { Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { AuditEntry } from '@contract/audit';
import { changeLines, changeText } from './auditFormat';
import { useValueNames } from './useValueNames';

/**
 * Before → after per changed field, fields and values in words; a creation shows only the new
 * values, a removal the old ones. `inline` renders spans, for places that hold only phrasing content.
 */
export const AuditChanges = ({ entry, inline = false }: { entry: Pick<AuditEntry, 'before' | 'after'>; inline?: boolean }) => {
  const translate = useTranslate();
  const { names, fieldLabel } = useValueNames();
  const lines = changeLines(entry, names);
  if (lines.length === 0) return null;
  const note = entry.before === null ? translate('audit.created') : entry.after === null ? translate('audit.removed') : null;
  return (
    <Box component={inline ? 'span' : 'ul'} sx={{ display: 'block', m: 0, p: 0, listStyle: 'none', maxWidth: 520 }}>
      {note && (
        <Typography component={inline ? 'span' : 'li'} variant="caption" color="text.secondary" sx={{ display: 'block' }}>
          {note}
        </Typography>
      )}
      {lines.map((line) => {
        const label = fieldLabel(line.field);
        return (
          <Typography
            component={inline ? 'span' : 'li'}
            variant="body2"
            key={line.field}
            title={changeText(line, label)}
            sx={{ display: 'block', overflowWrap: 'anywhere', color: 'text.primary' }}
          >
            <Box component="span" sx={{ fontWeight: 600 }}>
              {label}
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
        );
      })}
    </Box>
  );
};
