import { useEffect, useState } from 'react';
import { Box, CircularProgress, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';

/** How long a page's code may take before the loading screen shows (a quick one shows nothing). */
const SHOW_AFTER_MS = 1_000;

/**
 * What shows while a page's code downloads: react-admin's Loading, with its spinner named for
 * screen readers and its words in a readable grey (its own are unnamed and 2.65:1).
 */
export const PageLoading = () => {
  const translate = useTranslate();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setShown(true), SHOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);
  if (!shown) return null;
  const title = translate('ra.page.loading');
  return (
    <Box className="RaLoading-root" sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', height: '100%', py: 2 }}>
      <CircularProgress size="9em" aria-label={title} />
      <Typography variant="h5" component="p" sx={{ mt: 3, color: 'text.secondary' }}>
        {title}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {translate('ra.message.loading')}
      </Typography>
    </Box>
  );
};
