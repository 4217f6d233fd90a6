-- Passkeys (WebAuthn) of staff accounts (docs/security-signin.md#passkeys).

-- A passkey: its credential id and COSE public key (base64url), the authenticator's signature
-- counter (an assertion whose counter does not move past it is a replay or a clone), and the
-- account's user handle (the same for all of one account's passkeys, so a device keeps one per account).
CREATE TABLE staff_passkeys (
  id serial PRIMARY KEY,
  staff_user_id integer NOT NULL REFERENCES staff_users (id) ON DELETE CASCADE,
  credential_id text NOT NULL UNIQUE,
  public_key text NOT NULL,
  counter bigint NOT NULL DEFAULT 0,
  transports jsonb NOT NULL DEFAULT '[]',
  user_handle text NOT NULL,
  name text NOT NULL,
  backed_up boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz
);
CREATE INDEX staff_passkeys_staff ON staff_passkeys (staff_user_id);

-- Challenges handed to the browser: each is used once (deleted when an answer names it) and expires
-- within minutes. A sign-in's has no account yet; adding a passkey and re-authentication name theirs.
CREATE TABLE passkey_challenges (
  challenge text PRIMARY KEY,
  purpose text NOT NULL CHECK (purpose IN ('register', 'sign_in', 'reauth')),
  staff_user_id integer REFERENCES staff_users (id) ON DELETE CASCADE,
  -- adding a passkey: the user handle the options gave the authenticator, stored with the passkey
  user_handle text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX passkey_challenges_expires ON passkey_challenges (expires_at);
