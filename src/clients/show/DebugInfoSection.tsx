import { useTranslate } from 'react-admin';
import type { DebugRecord } from '@contract/clients';
import type { ClientRecord } from '../clientsData';
import { useClientSection } from './clientSections';
import { CollapsibleSection } from './CollapsibleSection';
import { DebugRecordCard } from './DebugRecordCard';
import { EmptyText, SectionState } from '../../common/SectionState';

export const DebugInfoSection = ({ client }: { client: ClientRecord }) => {
  const translate = useTranslate();
  const query = useClientSection<DebugRecord>(client, 'debug', (dp, c) => dp.getClientDebugInfo(c), { log: true });
  return (
    <CollapsibleSection title={translate('client.sections.debug.title')}>
      <SectionState title={translate('client.sections.debug.title')} query={query} empty={<EmptyText>{translate('client.sections.debug.empty')}</EmptyText>}>
        {(records) => records.map((record, index) => <DebugRecordCard key={index} record={record} />)}
      </SectionState>
    </CollapsibleSection>
  );
};
