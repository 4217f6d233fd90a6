import { downloadCSV, type Exporter } from 'react-admin';
import { csvDocument } from '@contract/csv';
import type { ClientRecord } from './clientsData';
import { isNewClient } from '../common/format';

const COLUMNS = [
  'id',
  'new',
  'first_name',
  'last_name',
  'email_address',
  'vod_access_level',
  'client_status',
  'mb_client_id',
  'mb_site_id',
  'first_login',
  'admin_updated_expiration',
] as const;

export function clientsCsv(records: ClientRecord[], now: Date): string {
  const rows = records.map((client) => ({
    id: client._id,
    new: isNewClient(client.first_login, now) ? 'yes' : 'no',
    first_name: client.first_name ?? '',
    last_name: client.last_name ?? '',
    email_address: client.email_address ?? '',
    vod_access_level: client.name ?? '',
    client_status: client.client_status,
    mb_client_id: client.mb_client_id ?? '',
    mb_site_id: client.mb_site_id ?? '',
    first_login: client.first_login ?? '',
    admin_updated_expiration: client.admin_updated_expiration ?? '',
  }));
  return csvDocument(COLUMNS, rows);
}

/**
 * CSV of the current list (its filter and sort), with the columns staff see plus the ids. Who
 * exported whose data is recorded (once per client and hour) by the dataProvider's recordListLooks.
 */
export const clientsExporter: Exporter<ClientRecord> = (records, _fetchRelated, dataProvider) => {
  const recordListLooks = (dataProvider as { recordListLooks?: (ids: number[]) => Promise<void> } | undefined)?.recordListLooks;
  void recordListLooks?.(records.map((client) => client._id)).catch(() => undefined);
  downloadCSV(clientsCsv(records, new Date()), 'clients');
};
