// Two-step sign-in: authenticator secrets, recovery codes, half-done sign-ins (migration 0080), passkeys (0100).
import { id64, tz } from './schemaColumns';
import { boolean, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';

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

// Passkeys (migration 0100).
export const staffPasskeys = pgTable('staff_passkeys', {
  id: serial('id').primaryKey(),
  staff_user_id: integer('staff_user_id').notNull(),
  credential_id: text('credential_id').notNull(),
  public_key: text('public_key').notNull(),
  counter: id64('counter').notNull().default(0),
  transports: jsonb('transports').$type<string[]>().notNull().default([]),
  user_handle: text('user_handle').notNull(),
  name: text('name').notNull(),
  backed_up: boolean('backed_up').notNull().default(false),
  created_at: tz('created_at').notNull(),
  last_used_at: tz('last_used_at'),
});

export const passkeyChallenges = pgTable('passkey_challenges', {
  challenge: text('challenge').primaryKey(),
  purpose: text('purpose').$type<'register' | 'sign_in' | 'reauth'>().notNull(),
  staff_user_id: integer('staff_user_id'),
  user_handle: text('user_handle'),
  created_at: tz('created_at').notNull(),
  expires_at: tz('expires_at').notNull(),
});
