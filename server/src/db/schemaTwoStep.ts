// Two-step sign-in: authenticator secrets, recovery codes, half-done sign-ins (migration 0080).
import { id64, tz } from './schemaColumns';
import { integer, pgTable, serial, text } from 'drizzle-orm/pg-core';

export const staffTotp = pgTable('staff_totp', {
  staff_user_id: integer('staff_user_id').primaryKey(),
  secret: text('secret').notNull(),
  created_at: tz('created_at').notNull().defaultNow(),
  confirmed_at: tz('confirmed_at'),
  last_used_step: id64('last_used_step'),
});

export const staffRecoveryCodes = pgTable('staff_recovery_codes', {
  id: serial('id').primaryKey(),
  staff_user_id: integer('staff_user_id').notNull(),
  code_hash: text('code_hash').notNull(),
  used_at: tz('used_at'),
});

export const signInChallenges = pgTable('sign_in_challenges', {
  id: text('id').primaryKey(),
  staff_user_id: integer('staff_user_id').notNull(),
  created_at: tz('created_at').notNull(),
  expires_at: tz('expires_at').notNull(),
  next: text('next'),
  failures: integer('failures').notNull().default(0),
});
