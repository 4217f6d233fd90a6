import type { ReactNode } from 'react';
import { Box, Typography } from '@mui/material';

/** One fact of the client's glance: a small label over its value. */
export const Fact = ({ label, field, children }: { label: string; field: string; children: ReactNode }) => (
  <Box sx={{ minWidth: 0 }}>
    <Typography variant="caption" color="text.secondary" component="div">
      {label}
    </Typography>
    <Typography component="div" data-field={field} sx={{ overflowWrap: 'anywhere' }}>
      {children}
    </Typography>
  </Box>
);
