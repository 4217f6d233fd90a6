import { Box } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { Contract } from '@contract/clients';
import { SyncContractsButton } from '../actions/SyncContractsButton';
import type { ClientRecord } from '../clientsData';
import { useCan } from '../../layout/useCan';
import { autopayEntries, contractDates, terminationDate } from '../../common/format';
import { useClientSection } from './clientSections';
import { CollapsibleSection } from './CollapsibleSection';
import { EmptyText, SectionState } from '../../common/SectionState';
import { SimpleTable } from '../../common/SimpleTable';

export const ContractsSection = ({ client }: { client: ClientRecord }) => {
  const translate = useTranslate();
  const query = useClientSection<Contract>(client, 'contracts', (dp, c) => dp.getClientContracts(c), { log: true });
  const t = (key: string, options?: object) => translate(`client.sections.contracts.${key}`, options);
  const canSync = useCan('clients', 'sync_contracts');
  return (
    <CollapsibleSection title={t('title')} viewLabel={t('view')} hideLabel={t('hide')} actions={canSync ? <SyncContractsButton client={client} /> : undefined}>
      <SectionState title={t('title')} query={query} empty={<EmptyText>{t('empty')}</EmptyText>}>
        {(contracts) => (
          <SimpleTable
            headers={[t('columns.status'), t('columns.name'), t('columns.date'), t('columns.termination'), t('columns.autopay')]}
            rows={contracts}
            rowKey={(contract) => contract.id}
            cells={(contract) => [
              contract.autopay_status ?? '',
              contract.contract_name ?? '',
              t('date_range', contractDates(contract.start_date, contract.end_date)),
              terminationDate(contract.termination_date, translate('client.not_available')),
              autopayEntries(contract.upcoming_autopay_events).map((entry, index) => <Box key={index}>{t('autopay_entry', entry)}</Box>),
            ]}
          />
        )}
      </SectionState>
    </CollapsibleSection>
  );
};
