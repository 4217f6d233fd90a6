import { useCallback } from 'react';
import { useSidebarState } from 'react-admin';
import { useIsPhone } from './useIsPhone';

/**
 * Below `sm` the sidebar is a drawer over the page. react-admin closes it when one of its links is
 * followed; everything else in it that navigates or acts (a search hit, 'Sync Vimeo videos', the
 * user menu) calls this, so the page the staff member asked for is not left hidden under it.
 */
export function useCloseDrawerOnPhone() {
  const isPhone = useIsPhone();
  const [, setOpen] = useSidebarState();
  return useCallback(() => {
    if (isPhone) setOpen(false);
  }, [isPhone, setOpen]);
}
