import { Link, useRecordContext, useTranslate } from 'react-admin';
import type { AuditEntry } from '@contract/audit';
import { clientPath } from '../clients/clientLists';
import { dateTime } from '../common/format';
import { AuditChanges } from './AuditChanges';
import { targetMessage } from './auditFormat';

// The cells of the Audit Log, shared by its table and its phone cards. Links are react-admin's
// (MUI-styled, underlined on focus and hover), not bare anchors.

/** The console's one date format (the client page's History uses it too). */
export const WhenCell = () => {
  const entry = useRecordContext<AuditEntry>();
  return entry ? <time dateTime={entry.at}>{dateTime(entry.at)}</time> : null;
};

export const StaffCell = () => {
  const entry = useRecordContext<AuditEntry>();
  const translate = useTranslate();
  return <>{entry?.staff_email ?? translate('audit.system')}</>;
};

export const ActionCell = () => {
  const entry = useRecordContext<AuditEntry>();
  const translate = useTranslate();
  return entry ? <>{translate(`audit.actions.${entry.action}`, { _: entry.action })}</> : null;
};

/** The record acted on; videos and clients have a page of their own, the other targets are read in place. */
export const TargetCell = () => {
  const entry = useRecordContext<AuditEntry>();
  const translate = useTranslate();
  if (!entry) return null;
  const [key, values] = targetMessage(entry);
  const text = translate(key, values);
  if (entry.target_type === 'video' && entry.target_id) return <Link to={`/videos/${entry.target_id}`}>{text}</Link>;
  if (entry.target_type === 'client' && entry.target_id) return <Link to={clientPath(entry.target_id)}>{text}</Link>;
  return <>{text}</>;
};

/** The client an action concerned, when the target is something else (a favorite, a push). */
export const ClientCell = () => {
  const entry = useRecordContext<AuditEntry>();
  const translate = useTranslate();
  if (!entry?.client_id) return null;
  if (entry.target_type === 'client' && entry.target_id === String(entry.client_id)) return null;
  return <Link to={clientPath(entry.client_id)}>{translate('audit.targets.client', { id: entry.client_id })}</Link>;
};

export const ChangesCell = () => {
  const entry = useRecordContext<AuditEntry>();
  return entry ? <AuditChanges entry={entry} /> : null;
};
