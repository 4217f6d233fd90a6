import { useId, useState, type ReactNode } from 'react';
import { Box, Button, Collapse, Paper, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';

export const SECTION_MAX_HEIGHT = 400;

export interface CollapsibleSectionProps {
  title: string;
  /** Toggle texts; default 'View' / 'Hide' (the spec gives its own for contracts). */
  viewLabel?: string;
  hideLabel?: string;
  /** Buttons shown next to the toggle (Sync Contracts, Add a Video). */
  actions?: ReactNode;
  children: ReactNode;
}

/** A section of the client page, closed until its toggle is pressed; at most 400 px high, scrolling. */
export const CollapsibleSection = ({ title, viewLabel, hideLabel, actions, children }: CollapsibleSectionProps) => {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const id = useId();
  const action = open ? (hideLabel ?? translate('client.sections.hide')) : (viewLabel ?? translate('client.sections.view'));
  const accessibleName = viewLabel ? action : translate('client.sections.toggle', { action, section: title });
  return (
    <Paper component="section" aria-labelledby={`${id}-title`} variant="outlined" sx={{ mb: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, px: 2, py: 1 }}>
        <Typography id={`${id}-title`} variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          {title}
        </Typography>
        {actions}
        <Button
          size="small"
          variant={open ? 'outlined' : 'contained'}
          aria-expanded={open}
          aria-controls={`${id}-body`}
          aria-label={accessibleName}
          onClick={() => setOpen((value) => !value)}
        >
          {action}
        </Button>
      </Box>
      <Collapse in={open} unmountOnExit={false}>
        {/* Focusable, so a keyboard can scroll a long section (it scrolls past 400 px). */}
        <Box
          id={`${id}-body`}
          data-testid="section-body"
          role="group"
          aria-labelledby={`${id}-title`}
          tabIndex={open ? 0 : -1}
          sx={{
            maxHeight: SECTION_MAX_HEIGHT,
            overflow: 'auto',
            px: 2,
            pb: 2,
            overflowWrap: 'break-word',
            '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineOffset: -2 },
          }}
        >
          {children}
        </Box>
      </Collapse>
    </Paper>
  );
};
