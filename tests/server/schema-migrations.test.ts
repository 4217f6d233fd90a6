import { getTableConfig, integer, pgTable, PgTable, text } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../server/src/db/client';
import * as schema from '../../server/src/db/schema';
import { testDatabases } from '../support/databases';

// server/migrations/*.sql are the source of truth (both drivers run them); server/src/db/schema*.ts
// is drizzle's typed view of the same tables. This migrates a fresh database and holds the two
// together: the table list, and each column's name, type and nullability.

/** One column as "table.column: type [not null]", the same spelling on both sides. */
type ColumnLine = string;

// drizzle spells the serial types by how they are declared; the database stores their integer type.
const STORED_AS: Record<string, string> = { serial: 'integer', bigserial: 'bigint', smallserial: 'smallint' };

const line = (table: string, column: string, type: string, notNull: boolean): ColumnLine => `${table}.${column}: ${type}${notNull ? ' not null' : ''}`;

/** The tables drizzle declares, with their columns. */
function drizzleColumns(tables: readonly PgTable[]): { tables: string[]; columns: ColumnLine[] } {
  const columns: ColumnLine[] = [];
  const names: string[] = [];
  for (const table of tables) {
    const config = getTableConfig(table);
    names.push(config.name);
    // A composite primary key makes its columns NOT NULL whether or not each says so.
    const inPrimaryKey = new Set(config.primaryKeys.flatMap((key) => key.columns.map((column) => column.name)));
    for (const column of config.columns) {
      const type = STORED_AS[column.getSQLType()] ?? column.getSQLType();
      columns.push(line(config.name, column.name, type, column.notNull || column.primary || inPrimaryKey.has(column.name)));
    }
  }
  return { tables: names.sort(), columns: columns.sort() };
}

/** The tables the migrations created, with their columns, as the database reports them. */
async function databaseColumns(database: Queryable): Promise<{ tables: string[]; columns: ColumnLine[] }> {
  const tables = await database.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'schema_migrations'`,
  );
  const columns = await database.query<{ table_name: string; column_name: string; is_nullable: string; type: string }>(
    `SELECT c.table_name, c.column_name, c.is_nullable, format_type(a.atttypid, a.atttypmod) AS type
     FROM information_schema.columns c
     JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
     JOIN pg_attribute a ON a.attrelid = format('%I.%I', c.table_schema, c.table_name)::regclass AND a.attname = c.column_name
     WHERE c.table_schema = 'public' AND c.table_name <> 'schema_migrations'`,
  );
  return {
    tables: tables.map((row) => row.name).sort(),
    columns: columns.map((row) => line(row.table_name, row.column_name, row.type, row.is_nullable === 'NO')).sort(),
  };
}

/** What only one side has: both lists empty when drizzle and the migrations agree. */
function schemaDifferences(drizzle: { tables: string[]; columns: ColumnLine[] }, database: { tables: string[]; columns: ColumnLine[] }) {
  const only = (a: string[], b: string[]) => a.filter((item) => !b.includes(item));
  return {
    tablesOnlyInMigrations: only(database.tables, drizzle.tables),
    tablesOnlyInDrizzle: only(drizzle.tables, database.tables),
    // A table missing on one side is reported once, as a table, not once per column.
    columnsOnlyInMigrations: only(database.columns, drizzle.columns).filter((column) => drizzle.tables.includes(column.split('.')[0]!)),
    columnsOnlyInDrizzle: only(drizzle.columns, database.columns).filter((column) => database.tables.includes(column.split('.')[0]!)),
  };
}

const AGREE = { tablesOnlyInMigrations: [], tablesOnlyInDrizzle: [], columnsOnlyInMigrations: [], columnsOnlyInDrizzle: [] };
const drizzleTables: PgTable[] = (Object.values(schema) as unknown[]).filter((value): value is PgTable => value instanceof PgTable);

describe.each(testDatabases())('the drizzle schema and the migrations on $name', ({ open }) => {
  let database: Awaited<ReturnType<typeof open>>;
  beforeAll(async () => {
    database = await open();
  });
  afterAll(async () => database.close());

  it('declare the same tables, each with the same columns, types and nullability', async () => {
    expect(drizzleTables.length).toBeGreaterThan(20);
    expect(schemaDifferences(drizzleColumns(drizzleTables), await databaseColumns(database))).toEqual(AGREE);
  });

  it('a drizzle table that strays from its migration is named, column by column', async () => {
    // message_types as migration 0001 creates it (id integer PRIMARY KEY, title text NOT NULL, slug text NOT NULL UNIQUE),
    // declared with a wrong type, a forgotten NOT NULL and a column no migration adds; plus a table no migration creates.
    const strayed = pgTable('message_types', { id: text('id').primaryKey(), title: text('title'), slug: text('slug').notNull(), emoji: text('emoji') });
    const invented = pgTable('push_campaigns', { id: integer('id').primaryKey() });
    const others = drizzleTables.filter((table) => getTableConfig(table).name !== 'message_types');
    expect(schemaDifferences(drizzleColumns([...others, strayed, invented]), await databaseColumns(database))).toEqual({
      tablesOnlyInMigrations: [],
      tablesOnlyInDrizzle: ['push_campaigns'],
      columnsOnlyInMigrations: ['message_types.id: integer not null', 'message_types.title: text not null'],
      columnsOnlyInDrizzle: ['message_types.emoji: text', 'message_types.id: text not null', 'message_types.title: text'],
    });
  });
});
