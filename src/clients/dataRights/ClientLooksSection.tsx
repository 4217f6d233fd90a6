import { List, ListItem, ListItemText } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { useConsoleDataProvider } from '../../providers/dataProvider';
import type { ClientRecord } from '../clientsData';
import { dateTime } from '../../common/format';
import { CollapsibleSection } from '../show/CollapsibleSection';
import { EmptyText, SectionError, SectionLoading } from '../../common/SectionState';

const LooksList = ({ clientId }: { clientId: number }) => {
  const translate = useTranslate();
  const t = (key: string, options?: Record<string, unknown>) => translate(`data_rights.looks.${key}`, options);
  const dataProvider = useConsoleDataProvider();
  const looks = useQuery({ queryKey: ['client-looks', clientId], queryFn: () => dataProvider.getClientLooks(clientId) });
  if (looks.isPending) return <SectionLoading />;
  if (looks.error) return <SectionError title={t('title')} error={looks.error} onRetry={() => void looks.refetch()} />;
  if (looks.data.length === 0) return <EmptyText>{t('empty')}</EmptyText>;
  return (
    <List dense>
      {looks.data.map((look) => (
        <ListItem key={`${look.staff_email}-${look.hour}`} disableGutters>
          <ListItemText primary={t('line', { who: look.staff_email, kind: t(`kinds.${look.kind}`), time: dateTime(look.first_at) })} />
        </ListItem>
      ))}
    </List>
  );
};

/** Owners: who looked at this client's data, once per staff member and hour. */
export const ClientLooksSection = ({ client }: { client: ClientRecord }) => {
  const translate = useTranslate();
  return (
    <CollapsibleSection title={translate('data_rights.looks.title')}>
      <LooksList clientId={client._id} />
    </CollapsibleSection>
  );
};
