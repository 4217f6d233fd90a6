import { useTranslate } from 'react-admin';
import type { AuditEntry } from '@contract/audit';
import { AuditChanges } from '../../audit/AuditChanges';
import type { ClientRecord } from '../clientsData';
import { dateTime } from '../../common/format';
import { useClientSection } from './clientSections';
import { CollapsibleSection } from './CollapsibleSection';
import { EmptyText, SectionState } from '../../common/SectionState';
import { SimpleTable } from '../../common/SimpleTable';

const COLUMNS = ['at', 'staff', 'action', 'changes'] as const;

/** This client's entries of the audit log (docs/features.md): who changed what for them, newest first. */
export const HistorySection = ({ client }: { client: ClientRecord }) => {
  const translate = useTranslate();
  const query = useClientSection<AuditEntry>(client, 'history', (dp, c) => dp.getClientHistory(c._id));
  const t = (key: string) => translate(`client.sections.history.${key}`);
  return (
    <CollapsibleSection title={t('title')}>
      <SectionState title={t('title')} query={query} empty={<EmptyText>{t('empty')}</EmptyText>}>
        {(entries) => (
          <SimpleTable
            headers={COLUMNS.map((column) => t(`columns.${column}`))}
            rows={entries}
            rowKey={(entry) => entry.id}
            cells={(entry) => [
              dateTime(entry.at),
              entry.staff_email ?? translate('audit.system'),
              translate(`audit.actions.${entry.action}`, { _: entry.action }),
              <AuditChanges entry={entry} />,
            ]}
          />
        )}
      </SectionState>
    </CollapsibleSection>
  );
};
