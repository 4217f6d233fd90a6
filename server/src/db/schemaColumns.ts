import { bigint, timestamp } from 'drizzle-orm/pg-core';

/** Column helpers shared by the schema files: timestamptz as Date, int8 as number. */
export const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
export const id64 = (name: string) => bigint(name, { mode: 'number' });
