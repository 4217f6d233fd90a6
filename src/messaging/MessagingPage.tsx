import { useTranslate } from 'react-admin';
import { PageHeader } from '../layout/PageHeader';
import { MessageTemplates } from './MessageTemplates';
import { AutomationSection } from './automation/AutomationSection';
import { messageTypes, type MessageType } from './messageTypes';

/**
 * Push messaging for one message type. The page is a stack of sections so later
 * settings of the type (automated sending, docs/automation.md) sit beside the templates without touching them.
 */
const MessagingPage = ({ typeId }: { typeId: MessageType['id'] }) => {
  const translate = useTranslate();
  const type = messageTypes.find((candidate) => candidate.id === typeId);
  if (!type) throw new Error(`Unknown message type ${typeId}`);
  return (
    <>
      <PageHeader title={translate('messaging.title', { type: translate(type.labelKey) })} />
      <MessageTemplates typeId={typeId} />
      <AutomationSection typeId={typeId} />
    </>
  );
};

export default MessagingPage;
