// The Revenue area's kept figures (migration 0075): derived from revenuecat_events by server/src/revenue/keep.ts.
import { bigint, date, integer, numeric, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { id64, tz } from './schemaColumns';

export const revenueChanges = pgTable('revenue_changes', {
  client_id: id64('client_id').notNull(),
  at: tz('at').notNull(),
  day: date('day', { mode: 'string' }).notNull(),
  kind: text('kind').notNull(),
  reason: text('reason').notNull().default(''),
  n: integer('n').notNull(),
  amount: numeric('amount').notNull(),
});

export const revenueDays = pgTable(
  'revenue_days',
  {
    day: date('day', { mode: 'string' }).notNull(),
    kind: text('kind').notNull(),
    reason: text('reason').notNull().default(''),
    n: bigint('n', { mode: 'number' }).notNull(),
    amount: numeric('amount').notNull(),
  },
  (table) => [primaryKey({ columns: [table.day, table.kind, table.reason] })],
);

// The same per month (migration 0110): the level before a chart's range and whole months, from few rows.
export const revenueMonths = pgTable(
  'revenue_months',
  {
    month: date('month', { mode: 'string' }).notNull(),
    kind: text('kind').notNull(),
    reason: text('reason').notNull().default(''),
    n: bigint('n', { mode: 'number' }).notNull(),
    amount: numeric('amount').notNull(),
  },
  (table) => [primaryKey({ columns: [table.month, table.kind, table.reason] })],
);

export const revenuePeriods = pgTable('revenue_periods', {
  client_id: id64('client_id').notNull(),
  subscription: text('subscription').notNull(),
  transaction: text('transaction').notNull(),
  kind: text('kind').notNull(),
  product: text('product'),
  start_at: tz('start_at').notNull(),
  end_at: tz('end_at'),
  mrr_usd: numeric('mrr_usd').notNull(),
});

export const revenueClients = pgTable('revenue_clients', {
  client_id: id64('client_id').primaryKey(),
  cohort: date('cohort', { mode: 'string' }),
});

export const clientActiveMonths = pgTable(
  'client_active_months',
  { client_id: id64('client_id').notNull(), month: date('month', { mode: 'string' }).notNull() },
  (table) => [primaryKey({ columns: [table.client_id, table.month] })],
);

export const revenueClientMonths = pgTable(
  'revenue_client_months',
  {
    client_id: id64('client_id').notNull(),
    kind: text('kind').notNull(),
    cohort: date('cohort', { mode: 'string' }).notNull(),
    month: date('month', { mode: 'string' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.client_id, table.kind, table.month] })],
);

export const revenueCohortCells = pgTable(
  'revenue_cohort_cells',
  {
    kind: text('kind').notNull(),
    cohort: date('cohort', { mode: 'string' }).notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.kind, table.cohort, table.month] })],
);

export const revenueBackfill = pgTable('revenue_backfill', {
  id: integer('id').primaryKey(),
  job_id: id64('job_id'),
  state: text('state').notNull(),
  last_client_id: id64('last_client_id').notNull().default(0),
  clients_done: integer('clients_done').notNull().default(0),
  clients_total: integer('clients_total').notNull().default(0),
  started_at: tz('started_at'),
  finished_at: tz('finished_at'),
});
