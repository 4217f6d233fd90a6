import type { Client } from '@contract/clients';

export const NOW = new Date();
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();

/** A client as the API answers it; override what a test needs. */
export const aClient = (overrides: Partial<Client> = {}): Client => ({
  _id: 1,
  first_name: 'Kim',
  last_name: 'Park',
  email_address: 'kim.park@studio.test',
  mb_client_id: '100777',
  mb_site_id: -99,
  vod_access_level: 2,
  name: 'VOD | BASIC',
  client_status: 'Active',
  first_login: daysAgo(100),
  admin_updated_expiration: null,
  ...overrides,
});

export const CLIENTS: Client[] = [
  aClient({
    _id: 11,
    first_name: 'Ann',
    last_name: 'Zeta',
    email_address: 'ann@studio.test',
    first_login: daysAgo(2),
    name: 'VOD | PREMIUM',
    vod_access_level: 3,
  }),
  aClient({ _id: 12, first_name: 'bob', last_name: 'Young', email_address: 'bob@studio.test', client_status: 'Pending' }),
  aClient({
    _id: 13,
    first_name: 'Cat',
    last_name: 'Xu',
    email_address: 'cat@elsewhere.test',
    client_status: 'Expired',
    name: 'VOD | FREE',
    vod_access_level: 1,
  }),
];
