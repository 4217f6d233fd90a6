import { Box, Button, Stack, Typography } from '@mui/material';
import { ThemeProvider, createTheme } from '@mui/material/styles';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import Refresh from '@mui/icons-material/Refresh';
import { useRouteError } from 'react-router-dom';
import { en } from '../i18n/en';
import { isChunkLoadError, retryFailedChunks } from '../common/chunks';

interface ErrorScreenProps {
  error?: unknown;
  /** Renders the part again (a page whose code failed to download fetches it again); absent: Reload only. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- react-admin's own signature
  resetErrorBoundary?: (...args: any[]) => void;
  errorInfo?: unknown;
}

/**
 * What a page that failed says, in the console's words: never a developer's stack. Texts come from
 * the messages file directly: the router's error screen shows outside react-admin's i18n context.
 */
export const ErrorPage = ({ error, resetErrorBoundary }: ErrorScreenProps) => {
  const texts = en.app.error;
  const chunk = isChunkLoadError(error);
  return (
    <Box role="alert" sx={{ py: 4, maxWidth: 560 }}>
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <ErrorOutline sx={{ fontSize: 56, color: 'text.secondary' }} aria-hidden />
        <Typography variant="h5" component="h1">
          {chunk ? texts.chunk_title : texts.title}
        </Typography>
        <Typography>{chunk ? texts.chunk_text : texts.text}</Typography>
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <Button variant="contained" startIcon={<Refresh />} onClick={() => window.location.reload()}>
            {texts.reload}
          </Button>
          {resetErrorBoundary && (
            <Button
              onClick={() => {
                retryFailedChunks();
                resetErrorBoundary();
              }}
            >
              {texts.retry}
            </Button>
          )}
        </Stack>
      </Stack>
    </Box>
  );
};

// The console's own light/dark setting lives in react-admin's store, out of reach here: the browser's is followed.
const standaloneTheme = createTheme({ colorSchemes: { light: true, dark: true } });

/** The router's error element: whatever fails outside a page's own boundary lands here, with Reload. */
export const RouteErrorScreen = () => {
  const error = useRouteError();
  return (
    <ThemeProvider theme={standaloneTheme}>
      <Box component="main" sx={{ minHeight: '100vh', bgcolor: 'background.default', color: 'text.primary', px: 3 }}>
        <ErrorPage error={error} />
      </Box>
    </ThemeProvider>
  );
};
