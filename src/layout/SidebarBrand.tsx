import { Box, Typography } from '@mui/material';
import { useSidebarState, useTranslate } from 'react-admin';

export const SidebarBrand = () => {
  const translate = useTranslate();
  const [sidebarOpen] = useSidebarState();
  const title = translate('app.title');
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, px: 1.5, py: 1.5, flexShrink: 0 }}>
      {/* BASE_URL keeps the logo working when the console is served under a path prefix. */}
      <Box component="img" src={`${import.meta.env.BASE_URL}logo.svg`} alt={sidebarOpen ? '' : title} sx={{ width: 32, height: 32, flexShrink: 0 }} />
      {sidebarOpen && (
        <Typography variant="subtitle1" component="div" noWrap sx={{ fontWeight: 700 }}>
          {title}
        </Typography>
      )}
    </Box>
  );
};
