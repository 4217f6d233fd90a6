import { Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { PushRecord } from '@contract/clientActions';
import { messageTypes } from '../../messaging/messageTypes';
import type { ClientRecord } from '../clientsData';
import { dateTime } from '../../common/format';
import { useClientSection } from './clientSections';
import { CollapsibleSection } from './CollapsibleSection';
import { EmptyText, SectionState } from '../../common/SectionState';
import { SimpleTable } from '../../common/SimpleTable';

const COLUMNS = ['sent_at', 'title', 'body', 'sent_by', 'result'];

/** The client's recent pushes, from staff and automated messages, with what each device answered. */
export const PushesSection = ({ client }: { client: ClientRecord }) => {
  const translate = useTranslate();
  const query = useClientSection<PushRecord>(client, 'pushes', (dp, c) => dp.getClientPushes(c._id), { log: true });
  const t = (key: string, options?: object) => translate(`client.sections.pushes.${key}`, options);
  // Automated messages record their type's slug as the source (docs/automation.md): 'Automated · High Five'.
  const senderLabel = (push: PushRecord) => {
    if (push.sent_by !== 'automated') return push.sent_by;
    const type = messageTypes.find((candidate) => candidate.slug === push.source);
    return type ? t('automated', { type: translate(type.labelKey) }) : push.sent_by;
  };
  return (
    <CollapsibleSection title={t('title')}>
      <SectionState title={t('title')} query={query} empty={<EmptyText>{t('empty')}</EmptyText>}>
        {(pushes) => (
          <SimpleTable
            headers={COLUMNS.map((column) => t(`columns.${column}`))}
            rows={pushes}
            rowKey={(push) => push.id}
            cells={(push) => [
              dateTime(push.created_at),
              push.title,
              push.body,
              senderLabel(push),
              <span key="result">
                <Typography
                  component="span"
                  variant="body2"
                  fontWeight="bold"
                  color={
                    push.status === 'sent' ? 'success.main' : push.status === 'sending' ? 'text.secondary' : push.status === 'queued' ? 'warning.main' : 'error'
                  }
                >
                  {t(`status.${push.status}`)}
                </Typography>
                {push.results.length > 0 && (
                  <Typography component="span" variant="body2" color="text.secondary">
                    {' · '}
                    {t('devices', { sent: push.results.filter((r) => r.outcome === 'sent').length, count: push.results.length })}
                  </Typography>
                )}
                {push.reason && (
                  <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block' }}>
                    {push.reason}
                  </Typography>
                )}
              </span>,
            ]}
          />
        )}
      </SectionState>
    </CollapsibleSection>
  );
};
