import { Button } from '@mui/material';
import ArrowBack from '@mui/icons-material/ArrowBack';
import { useTranslate } from 'react-admin';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { clientListPath } from '../clientLists';

/** Where a client page opened without a page of ours before it goes back to (ours): the full list. */
export const NO_HISTORY_TARGET = clientListPath({ slug: 'all' });

/**
 * To the root when the page was opened from customer search (?search=customers),
 * otherwise one step back. Ours: a page opened directly (a link, a new tab, after signing in) has
 * nothing of ours to step back to, and Back would leave the console, so it goes to the client list.
 */
export const backTarget = (search: string | null, openedDirectly = false): string | -1 =>
  search === 'customers' ? '/' : openedDirectly ? NO_HISTORY_TARGET : -1;

export const BackButton = () => {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // React Router keys the entry a browser loaded first 'default'; every navigation in the app gets its own key.
  const openedDirectly = useLocation().key === 'default';
  const target = backTarget(params.get('search'), openedDirectly);
  return (
    <Button startIcon={<ArrowBack />} onClick={() => (target === -1 ? navigate(-1) : navigate(target))}>
      {translate('client.actions.back')}
    </Button>
  );
};
