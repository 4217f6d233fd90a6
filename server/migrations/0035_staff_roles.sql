-- Roles (contract/permissions.ts has the matrix). Every account that existed before roles could do
-- everything, so each becomes an owner. The default says the same for rows written by anything that
-- predates roles (a restore of an older dump); the server itself always names the role it creates
-- an account with (server/src/auth/staff.ts refuses a new account without one).
ALTER TABLE staff_users
  ADD COLUMN role text NOT NULL DEFAULT 'owner'
    CONSTRAINT staff_users_role_check CHECK (role IN ('owner', 'manager', 'front_desk', 'content'));

-- A disabled account cannot sign in and its sessions are gone; null while active.
ALTER TABLE staff_users ADD COLUMN disabled_at timestamptz;
