import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Passkey } from '@contract/passkeys';
import type { Queryable } from '../db/client';
import { recordAudit, type Actor } from '../audit/record';
import { challengeOf, PASSKEY_CHALLENGE_TTL_MS, type PasskeyChallenges } from './passkeyChallenges';
import { HttpError, notFound } from '../lib/errors';
import { findStaffById, type StaffUser } from '../staff/queries';
import {
  claimPasskeyUse,
  countPasskeys,
  deletePasskey,
  deletePasskeysOf,
  holdsPasskey,
  insertPasskey,
  passkeyByCredential,
  passkeyHolderIds,
  passkeyOwnerId,
  passkeysOf,
  passkeysOfInOrder,
  type PasskeyRow,
} from './passkeyQueries';

/** Passkeys one account may hold: enough for every device, few enough to list. */
export const MAX_PASSKEYS = 20;
const RP_NAME = 'Studio Console';

/**
 * The relying party: the RP ID (PASSKEY_RP_ID, else PUBLIC_URL's host) and the origin pages are
 * served from (PUBLIC_URL's). Without PUBLIC_URL, the host the browser asked for: a passkey is
 * bound to the name the browser shows, and a page under another name gets no assertion for ours.
 */
export function relyingParty(app: FastifyInstance, request: FastifyRequest): { rpID: string; origin: string } {
  if (app.config.PUBLIC_URL) {
    const url = new URL(app.config.PUBLIC_URL);
    return { rpID: app.config.PASSKEY_RP_ID ?? url.hostname, origin: url.origin };
  }
  return { rpID: app.config.PASSKEY_RP_ID ?? request.hostname, origin: `${request.protocol}://${request.host}` };
}

/** Why a passkey was refused: the audit log's reason, and what the caller is told. */
export class PasskeyRefusal extends HttpError {
  constructor(
    status: number,
    readonly reason: string,
    message: string,
  ) {
    super(status, message);
  }
}

const CHALLENGE_GONE = 'This passkey request has expired or was already used. Try again.';
const NOT_RECOGNISED = 'This passkey is not registered for a staff account here.';
const NOT_VALID = 'The passkey’s answer could not be verified. Try again.';

// WebAuthn's option interfaces, as the plain JSON objects the routes send.
const asJson = (options: object) => options as Record<string, unknown>;

const toPasskey = (row: PasskeyRow): Passkey => ({
  id: row.id,
  name: row.name,
  created_at: row.created_at.toISOString(),
  last_used_at: row.last_used_at?.toISOString() ?? null,
  backed_up: row.backed_up,
});

export async function listPasskeys(database: Queryable, staffUserId: number): Promise<Passkey[]> {
  const rows = await passkeysOfInOrder(database, staffUserId);
  return rows.map(toPasskey);
}

/** The options for navigator.credentials.create(): a discoverable passkey with user verification, none of the account's own again. */
export async function registrationOptions(database: Queryable, challenges: PasskeyChallenges, rp: { rpID: string }, user: StaffUser) {
  const existing = await passkeysOf(database, user.id);
  if (existing.length >= MAX_PASSKEYS) throw new HttpError(409, `An account holds at most ${MAX_PASSKEYS} passkeys: remove one first.`);
  const userHandle = existing[0]?.user_handle ?? randomBytes(32).toString('base64url');
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.rpID,
    userName: user.email,
    userDisplayName: user.nickname || user.email,
    userID: new Uint8Array(Buffer.from(userHandle, 'base64url')),
    attestationType: 'none',
    timeout: PASSKEY_CHALLENGE_TTL_MS,
    excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: row.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  await challenges.issue(options.challenge, 'register', user.id, userHandle);
  return asJson(options);
}

/** Checks the browser's answer to the registration options and keeps the passkey under `name`; audited. */
export async function addPasskey(
  app: FastifyInstance,
  challenges: PasskeyChallenges,
  rp: { rpID: string; origin: string },
  user: StaffUser,
  input: { name: string; response: RegistrationResponseJSON },
  actor: Actor,
): Promise<Passkey> {
  const challenge = challengeOf(input.response.response.clientDataJSON);
  if (!challenge)
    throw new PasskeyRefusal(400, 'malformed answer', 'Invalid request: body.response: is not a passkey’s answer (clientDataJSON holds no challenge)');
  const issued = await challenges.claim(challenge, 'register', user.id);
  if (!issued?.user_handle) throw new PasskeyRefusal(400, 'challenge missing or expired', CHALLENGE_GONE);
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: true,
    });
  } catch (error) {
    app.log.info({ err: error, staff: user.id }, 'passkey registration refused');
    throw new PasskeyRefusal(400, 'registration not valid', NOT_VALID);
  }
  if (!verified.verified) throw new PasskeyRefusal(400, 'registration not valid', NOT_VALID);
  const { credential, credentialBackedUp } = verified.registrationInfo;
  return app.database.transaction(async (tx) => {
    if ((await countPasskeys(tx, user.id)) >= MAX_PASSKEYS) throw new HttpError(409, `An account holds at most ${MAX_PASSKEYS} passkeys: remove one first.`);
    const row = await insertPasskey(tx, {
      staff_user_id: user.id,
      credential_id: credential.id,
      public_key: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: (credential.transports ?? []).slice(0, 10),
      user_handle: issued.user_handle!,
      name: input.name,
      backed_up: credentialBackedUp,
      created_at: actor.at,
    });
    if (!row) throw new HttpError(409, 'This passkey is already registered.');
    await recordAudit(tx, {
      ...actor,
      action: 'auth.passkey_add',
      target_type: 'staff_user',
      target_id: user.id,
      after: { passkey_id: row.id, name: row.name },
    });
    return toPasskey(row);
  });
}

/** Removes one of the member's own passkeys; audited. Another account's id is not found, as an unknown one. */
export async function removePasskey(app: FastifyInstance, user: StaffUser, passkeyId: number, actor: Actor): Promise<void> {
  await app.database.transaction(async (tx) => {
    const row = await deletePasskey(tx, user.id, passkeyId);
    if (!row) throw notFound(`You have no passkey with id ${passkeyId}.`);
    await recordAudit(tx, {
      ...actor,
      action: 'auth.passkey_remove',
      target_type: 'staff_user',
      target_id: user.id,
      before: { passkey_id: row.id, name: row.name },
    });
  });
}

/**
 * The options for navigator.credentials.get(): for a sign-in any passkey of ours (the browser
 * offers the ones it holds); for re-authentication, the member's own.
 */
export async function authenticationOptions(
  database: Queryable,
  challenges: PasskeyChallenges,
  rp: { rpID: string },
  purpose: 'sign_in' | 'reauth',
  user: StaffUser | null,
) {
  const own = user ? await passkeysOf(database, user.id) : [];
  if (user && own.length === 0) throw new HttpError(409, 'You have no passkey yet: add one from the user menu (Two-step sign-in).');
  const options = await generateAuthenticationOptions({
    rpID: rp.rpID,
    timeout: PASSKEY_CHALLENGE_TTL_MS,
    userVerification: 'required',
    allowCredentials: own.map((row) => ({ id: row.credential_id, transports: row.transports })),
  });
  await challenges.issue(options.challenge, purpose, user?.id ?? null);
  return asJson(options);
}

export interface PasskeyUse {
  staffUserId: number;
  passkeyId: number;
  name: string;
}

/**
 * Checks a passkey's answer to sign-in or re-authentication options: the challenge ours, open,
 * for this purpose (and account) and used once; the passkey known (and the member's own); the
 * signature right with user verification; the counter moved on. Refusals say which.
 */
export async function checkAssertion(
  app: FastifyInstance,
  challenges: PasskeyChallenges,
  rp: { rpID: string; origin: string },
  response: AuthenticationResponseJSON,
  purpose: 'sign_in' | 'reauth',
  staffUserId: number | null,
): Promise<PasskeyUse> {
  const challenge = challengeOf(response.response.clientDataJSON);
  if (!challenge) throw new PasskeyRefusal(400, 'malformed answer', 'Invalid request: the passkey’s answer holds no challenge.');
  const issued = await challenges.claim(challenge, purpose, staffUserId);
  if (!issued) throw new PasskeyRefusal(400, 'challenge missing or expired', CHALLENGE_GONE);
  const row = await passkeyByCredential(app.database, response.id);
  if (!row) throw new PasskeyRefusal(401, 'unknown passkey', NOT_RECOGNISED);
  if (staffUserId !== null && row.staff_user_id !== staffUserId)
    throw new PasskeyRefusal(401, "another account's passkey", 'This passkey is not one of yours.');
  if (response.response.userHandle !== undefined && response.response.userHandle !== row.user_handle) {
    throw new PasskeyRefusal(401, 'user handle does not match', NOT_RECOGNISED);
  }
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: true,
      credential: {
        id: row.credential_id,
        publicKey: new Uint8Array(Buffer.from(row.public_key, 'base64url')),
        counter: row.counter,
        transports: row.transports,
      },
    });
  } catch (error) {
    app.log.info({ err: error, passkey: row.id }, 'passkey assertion refused');
    throw new PasskeyRefusal(401, 'assertion not valid', NOT_VALID);
  }
  if (!verified.verified) throw new PasskeyRefusal(401, 'assertion not valid', NOT_VALID);
  const { newCounter, credentialBackedUp } = verified.authenticationInfo;
  // Claimed by one conditional UPDATE: an answer whose counter does not move past the stored one
  // is a copy (a replay, or a cloned authenticator). Passkeys that keep no counter send 0 always.
  const claimed = await claimPasskeyUse(app.database, row.id, { counter: newCounter, at: app.clock.now(), backedUp: credentialBackedUp });
  if (!claimed) throw new PasskeyRefusal(401, 'counter did not increase', 'This passkey’s answer was already used. Try again.');
  return { staffUserId: row.staff_user_id, passkeyId: row.id, name: row.name };
}

/** The account a credential id belongs to (a refused sign-in is audited under it), if any. */
export async function passkeyOwner(database: Queryable, credentialId: string): Promise<StaffUser | null> {
  const ownerId = await passkeyOwnerId(database, credentialId);
  return ownerId === undefined ? null : ((await findStaffById(database, ownerId)) ?? null);
}

/** Whether the account holds a passkey: with one, it has two-step sign-in (the owner's rule). */
export function hasPasskey(database: Queryable, staffUserId: number): Promise<boolean> {
  return holdsPasskey(database, staffUserId);
}

/** The accounts that hold at least one passkey. */
export async function passkeyHolders(database: Queryable): Promise<Set<number>> {
  return new Set(await passkeyHolderIds(database));
}

/** How many passkeys the account holds (an owner's reset removes them with the authenticator). */
export function removeAllPasskeys(database: Queryable, staffUserId: number): Promise<number> {
  return deletePasskeysOf(database, staffUserId);
}
