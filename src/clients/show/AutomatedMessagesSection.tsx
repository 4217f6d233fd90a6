import { FormControlLabel, Switch } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import type { ClientAutomatedPush } from '@contract/automation';
import { useConsoleDataProvider } from '../../providers/dataProvider';
import type { ClientRecord } from '../clientsData';
import { useCan } from '../../layout/useCan';
import { dateTime } from '../../common/format';
import { clientSectionKey } from './clientSections';
import { CollapsibleSection } from './CollapsibleSection';
import { EmptyText, SectionError, SectionLoading } from '../../common/SectionState';
import { SimpleTable } from '../../common/SimpleTable';

/** The automated pushes this client got (and those skipped or failed, with why), and their opt-out. */
export const AutomatedMessagesSection = ({ client }: { client: ClientRecord }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useConsoleDataProvider();
  const queryClient = useQueryClient();
  const key = clientSectionKey(client._id, 'automated-messages');
  // Opting a client out is 'automated sending' (messaging.edit); other roles see the state only.
  const canOptOut = useCan('messaging', 'edit');
  const query = useQuery({ queryKey: key, queryFn: () => dataProvider.getClientAutomatedMessages(client._id), retry: false });
  const optOut = useMutation({
    mutationFn: (optedOut: boolean) => dataProvider.setClientAutomatedOptOut(client._id, optedOut),
    onSuccess: (data) => queryClient.setQueryData(key, data),
    onError: (error) =>
      notify('client.sections.automated_messages.opt_out_failed', {
        type: 'error',
        messageArgs: { reason: error instanceof Error ? error.message : String(error) },
      }),
  });
  const t = (name: string, options?: Record<string, unknown>) => translate(`client.sections.automated_messages.${name}`, options);
  const reason = (push: ClientAutomatedPush) =>
    push.status === 'skipped'
      ? translate(`messaging.automation.skip_reasons.${push.skip_reason ?? 'unknown'}`, { _: push.skip_reason ?? '' })
      : (push.last_error ?? '');
  const optOutSwitch = query.data && (
    <FormControlLabel
      control={<Switch checked={query.data.opted_out} disabled={optOut.isPending || !canOptOut} onChange={(e) => optOut.mutate(e.target.checked)} />}
      label={t('opted_out')}
    />
  );
  return (
    <CollapsibleSection title={t('title')} actions={optOutSwitch}>
      {query.isPending ? (
        <SectionLoading />
      ) : query.isError ? (
        <SectionError title={t('title')} error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data.pushes.length === 0 ? (
        <EmptyText>{t('empty')}</EmptyText>
      ) : (
        <SimpleTable
          headers={[t('columns.when'), t('columns.type'), t('columns.text'), t('columns.status')]}
          rows={query.data.pushes}
          rowKey={(push) => push.id}
          cells={(push) => [
            dateTime(push.sent_at ?? push.planned_for),
            push.msg_type_title,
            push.title || push.message ? (
              <>
                <strong>{push.title}</strong> {push.message}
              </>
            ) : (
              ''
            ),
            t(`status.${push.status}`, { reason: reason(push) }),
          ]}
        />
      )}
    </CollapsibleSection>
  );
};
