-- Two-step sign-in (docs/security-signin.md#two-step-sign-in).

-- An authenticator (RFC 6238) secret per staff account: confirmed_at is null while it is being set
-- up (the secret shown, no code typed yet). last_used_step is the time step of the last code
-- accepted: a code is accepted once, and none from an earlier step after it.
CREATE TABLE staff_totp (
  staff_user_id integer PRIMARY KEY REFERENCES staff_users (id) ON DELETE CASCADE,
  secret text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  confirmed_at timestamptz,
  last_used_step bigint
);

-- One-use recovery codes, stored as SHA-256 hashes (each holds 50 random bits, so no slow hash is needed).
CREATE TABLE staff_recovery_codes (
  id serial PRIMARY KEY,
  staff_user_id integer NOT NULL REFERENCES staff_users (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz
);
CREATE INDEX staff_recovery_codes_staff ON staff_recovery_codes (staff_user_id);

-- When two-step was turned on for the account (null: off). Read with the session on every request.
ALTER TABLE staff_users ADD COLUMN two_step_at timestamptz;

-- When the session's staff member last proved who they are (sign-in, re-authentication).
ALTER TABLE sessions ADD COLUMN verified_at timestamptz;
UPDATE sessions SET verified_at = created_at;
ALTER TABLE sessions ALTER COLUMN verified_at SET NOT NULL;
ALTER TABLE sessions ALTER COLUMN verified_at SET DEFAULT now();
-- How the sign-in's second step was made (totp, recovery_code, idp, passkey); null: password alone.
ALTER TABLE sessions ADD COLUMN second_step text;

-- A sign-in whose password was right and whose second step is still to come: short-lived, never a session.
CREATE TABLE sign_in_challenges (
  id text PRIMARY KEY,
  staff_user_id integer NOT NULL REFERENCES staff_users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  next text,
  failures integer NOT NULL DEFAULT 0
);
CREATE INDEX sign_in_challenges_expires ON sign_in_challenges (expires_at);
