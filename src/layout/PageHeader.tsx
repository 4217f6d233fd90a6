import { useEffect, type ReactNode } from 'react';
import { Box, Typography } from '@mui/material';
import { Title, useTranslate } from 'react-admin';

/**
 * The page title shown in three places: the AppBar (react-admin's <Title> portal),
 * the page body (h1, for screen readers and narrow screens) and the browser tab.
 */
export const PageHeader = ({ title, actions, start }: { title: string; actions?: ReactNode; start?: ReactNode }) => {
  const translate = useTranslate();

  useEffect(() => {
    document.title = translate('app.document_title', { page: title });
    return () => {
      document.title = translate('app.title');
    };
  }, [title, translate]);

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 2, pt: 3, pb: 2 }}>
      <Title title={title} preferenceKey={false} />
      {start}
      <Typography variant="h1" sx={{ flexGrow: 1 }}>
        {title}
      </Typography>
      {actions}
    </Box>
  );
};
