import { Button } from '@mui/material';
import ArrowBack from '@mui/icons-material/ArrowBack';
import { useTranslate } from 'react-admin';
import { useNavigate, useSearchParams } from 'react-router-dom';

/** Spec §2: to the root when the page was opened from customer search (?search=customers), otherwise one step back. */
export const backTarget = (search: string | null): '/' | -1 => (search === 'customers' ? '/' : -1);

export const BackButton = () => {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const target = backTarget(params.get('search'));
  return (
    <Button startIcon={<ArrowBack />} onClick={() => (target === '/' ? navigate('/') : navigate(-1))}>
      {translate('client.actions.back')}
    </Button>
  );
};
