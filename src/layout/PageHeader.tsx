import { useEffect, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';

/**
 * react-admin's <Title preferenceKey={false}>: the title in the AppBar's TitlePortal. Its <Title>
 * also imports the configurable title's editor (a form with MUI's whole TextField and Select),
 * which no page of ours shows: that kept ~10 KB out of reach of lazy loading.
 */
const AppBarTitle = ({ title }: { title: string }) => {
  const translate = useTranslate();
  const [container, setContainer] = useState(() => document.getElementById('react-admin-title'));
  // On first mount the AppBar's portal may not be there yet.
  useEffect(() => {
    setContainer((current) => (current && document.body.contains(current) ? current : document.getElementById('react-admin-title')));
  }, []);
  if (!container) return null;
  return createPortal(
    <span>
      <span>{translate(title, { _: title })}</span>
    </span>,
    container,
  );
};

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
      <AppBarTitle title={title} />
      {start}
      <Typography variant="h1" sx={{ flexGrow: 1 }}>
        {title}
      </Typography>
      {actions}
    </Box>
  );
};
