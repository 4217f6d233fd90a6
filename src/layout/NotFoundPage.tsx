import { Box, Button, Stack, Typography } from '@mui/material';
import SearchOffIcon from '@mui/icons-material/SearchOff';
import ArrowBack from '@mui/icons-material/ArrowBack';
import { Link } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import { PageHeader } from './PageHeader';

/**
 * The console's catch-all page. react-admin's own adds a period to a text that already ends with
 * one ('bad link..') and greys its text below readable contrast.
 */
export const NotFoundPage = () => {
  const translate = useTranslate();
  return (
    <Box>
      <PageHeader title={translate('app.not_found.title')} />
      <Stack spacing={2} sx={{ alignItems: 'flex-start', maxWidth: 560 }}>
        <SearchOffIcon sx={{ fontSize: 64, color: 'text.secondary' }} aria-hidden />
        <Typography>{translate('app.not_found.text')}</Typography>
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <Button variant="contained" component={Link} to="/">
            {translate('app.not_found.home')}
          </Button>
          <Button startIcon={<ArrowBack />} onClick={() => window.history.back()}>
            {translate('ra.action.back')}
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
};
